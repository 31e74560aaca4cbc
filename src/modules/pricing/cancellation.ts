// The cancellation fee a booking owes under the environment's cancellation policy.
import { percentOf } from './money.ts';

export interface CancellationPolicy {
  /** Cancelling at least this many hours before the start is free. */
  free_cancellation_hours: number;
  /** Percent of the total charged for a later cancellation. */
  late_cancellation_fee_percent: number;
  /** Percent of the total charged once the job is in progress. */
  in_progress_fee_percent: number;
}

export interface CancellationFee {
  amount: number;
  policy: 'free_cancellation' | 'late_cancellation' | 'in_progress';
}

export function cancellationFee(
  policy: CancellationPolicy,
  booking: { total: number; status: string; scheduledAt: Date; cancelledAt: Date },
): CancellationFee {
  if (booking.status === 'in_progress') {
    return { amount: percentOf(booking.total, policy.in_progress_fee_percent), policy: 'in_progress' };
  }
  const noticeMs = booking.scheduledAt.getTime() - booking.cancelledAt.getTime();
  if (noticeMs >= policy.free_cancellation_hours * 3_600_000) return { amount: 0, policy: 'free_cancellation' };
  return { amount: percentOf(booking.total, policy.late_cancellation_fee_percent), policy: 'late_cancellation' };
}
