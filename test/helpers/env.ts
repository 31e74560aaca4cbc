// The test run's settings, read in one place.
export function testRedisUrl(): string | undefined {
  return process.env.TEST_REDIS_URL || undefined;
}
