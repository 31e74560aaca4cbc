// The test run's settings, read in one place.
import path from 'node:path';

export function testRedisUrl(): string | undefined {
  return process.env.TEST_REDIS_URL || undefined;
}

/**
 * Where the browser tests save their screenshots: git-ignored test-results/screenshots, unless
 * `npm run screenshots` asks for docs/screenshots (the README's) with SCREENSHOTS_DIR.
 */
export function screenshotsDir(): string {
  return path.resolve(import.meta.dirname, '../..', process.env.SCREENSHOTS_DIR || 'test-results/screenshots');
}
