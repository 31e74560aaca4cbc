// The payment-processor port: what the payments module charges through. Built-in processors
// live in modules/payments; deps carries the ones this process uses, so a test or a deployment
// can substitute its own.
import type { Environment } from './tenant.ts';

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'unknown';
export type DeclineCode = 'card_declined' | 'insufficient_funds';

export interface CardDetails {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

export interface StoredCard {
  token: string;
  brand: CardBrand;
  last4: string;
}

export type ChargeResult =
  | { ok: true; reference: string }
  | { ok: false; code: DeclineCode; message: string; reference: string | null };

export interface PaymentProcessor {
  readonly name: string;
  /** Vaults a card and returns the token we keep; declines happen at charge time, not here. */
  addCard(card: CardDetails): Promise<StoredCard>;
  charge(input: { token: string; amount: number; currency: string }): Promise<ChargeResult>;
  /** Returns (part of) a charge to the card it came from. */
  refund(input: { chargeReference: string; amount: number }): Promise<{ reference: string }>;
}

/** Which processor serves each environment; live has none until one is configured. */
export interface PaymentProcessors {
  test: PaymentProcessor;
  live: PaymentProcessor | null;
}

export function processorFor(processors: PaymentProcessors, environment: Environment): PaymentProcessor | null {
  return environment === 'test' ? processors.test : processors.live;
}
