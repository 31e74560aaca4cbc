// The environment's settings as /v1/settings answers them, and what a PATCH may send: the
// catalog file's field rules for discounts and the cancellation policy.
import { type Static, Type } from 'typebox';
import { Nullable, Strict } from '../../core/http/schemas.ts';
import { CancellationPolicyFields, Email, FrequencyDiscounts, Name, Phone } from './catalog-file.ts';

const Percent = Type.Number({ description: 'Percent.' });

export const Settings = Type.Object(
  {
    object: Type.Literal('settings'),
    business: Type.Object({
      name: Type.String({ description: "Shown to customers; defaults to the account's name." }),
      email: Nullable(Type.String()),
      phone: Nullable(Type.String()),
    }),
    currency: Type.String({ description: 'ISO 4217, lower case; fixed once an invoice exists.' }),
    frequency_discounts: Type.Object({
      'one-time': Percent,
      weekly: Percent,
      'bi-weekly': Percent,
      monthly: Percent,
    }),
    cancellation_policy: Type.Object({
      free_cancellation_hours: Type.Integer({ description: 'Cancelling at least this long before is free.' }),
      late_cancellation_fee_percent: Type.Number({ description: 'Fee (percent of the total) when later.' }),
      in_progress_fee_percent: Type.Number({ description: 'Fee once the job has started.' }),
    }),
  },
  { $id: 'Settings', title: 'Settings' },
);
export type SettingsView = Static<typeof Settings>;

const { free_cancellation_hours, late_cancellation_fee_percent, in_progress_fee_percent } = CancellationPolicyFields;

export const UpdateSettingsBody = Strict(
  {
    business: Type.Optional(
      Strict({
        name: Type.Optional(Name),
        email: Type.Optional(Nullable(Email)),
        phone: Type.Optional(Nullable(Phone)),
      }),
    ),
    currency: Type.Optional(
      Type.String({ pattern: '^[a-z]{3}$', description: 'ISO 4217 code in lower case, e.g. usd, eur.' }),
    ),
    frequency_discounts: Type.Optional(FrequencyDiscounts),
    cancellation_policy: Type.Optional(
      Strict({
        free_cancellation_hours: Type.Optional(free_cancellation_hours),
        late_cancellation_fee_percent: Type.Optional(late_cancellation_fee_percent),
        in_progress_fee_percent: Type.Optional(in_progress_fee_percent),
      }),
    ),
  },
  { description: 'Merges key by key, nested objects too: what is not sent stays as it was.' },
);
export type UpdateSettingsBody = Static<typeof UpdateSettingsBody>;
