// The built-in test-mode payment processor (no network, no money); the interface is
// core/payments.ts. A card number reaches only `addCard`; from then on we hold the token.
import { randomBase62 } from '../../core/ids.ts';
import type { CardBrand, DeclineCode, PaymentProcessor, PaymentProcessors } from '../../core/payments.ts';

/** The Luhn checksum every real card number satisfies. */
export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function cardBrand(number: string): CardBrand {
  const prefix = (length: number) => Number(number.slice(0, length));
  if (/^4/.test(number)) return 'visa';
  if ((prefix(2) >= 51 && prefix(2) <= 55) || (prefix(4) >= 2221 && prefix(4) <= 2720)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  if (
    /^6011/.test(number) ||
    /^65/.test(number) ||
    (prefix(3) >= 644 && prefix(3) <= 649) ||
    (prefix(6) >= 622126 && prefix(6) <= 622925)
  ) {
    return 'discover';
  }
  return 'unknown';
}

/** CONTRACT §7 test cards that fail when charged; every other valid number succeeds. */
const TEST_DECLINES: Record<string, DeclineCode> = {
  '4000000000000002': 'card_declined',
  '4000000000009995': 'insufficient_funds',
};

const DECLINE_MESSAGES: Record<DeclineCode, string> = {
  card_declined: 'The card was declined.',
  insufficient_funds: 'The card has insufficient funds to complete the payment.',
};

/**
 * The built-in test-mode processor. Its token says how the card behaves when charged
 * (`tok_test_ok_…`, `tok_test_card_declined_…`), so nothing of the number is kept.
 */
export const testProcessor: PaymentProcessor = {
  name: 'test',
  async addCard(card) {
    const behaviour = TEST_DECLINES[card.number] ?? 'ok';
    return {
      token: `tok_test_${behaviour}_${randomBase62(16)}`,
      brand: cardBrand(card.number),
      last4: card.number.slice(-4),
    };
  },
  async charge({ token }) {
    for (const code of Object.values(TEST_DECLINES)) {
      if (token.startsWith(`tok_test_${code}_`)) {
        return { ok: false, code, message: DECLINE_MESSAGES[code], reference: `ch_test_${randomBase62(16)}` };
      }
    }
    return { ok: true, reference: `ch_test_${randomBase62(16)}` };
  },
  async refund() {
    return { reference: `rf_test_${randomBase62(16)}` };
  },
};

export function builtInProcessors(live: PaymentProcessor | null = null): PaymentProcessors {
  return { test: testProcessor, live };
}
