import { type Static, Type } from 'typebox';
import { MetadataBody } from '../../core/http/metadata.ts';
import { ListOf, ListQuery } from '../../core/http/pagination.ts';
import { Nullable, Strict, Timestamp, TimestampOrDate } from '../../core/http/schemas.ts';
import { explainPattern } from '../../core/http/validation.ts';

const NonEmpty = (maxLength: number, description?: string) => Type.String({ minLength: 1, maxLength, description });

export const E164 = Type.String({
  pattern: explainPattern(
    '^\\+[1-9][0-9]{1,14}$',
    'in E.164 format: a + and the country code, then the number, digits only (e.g. +14155550123)',
  ),
  description: 'E.164 international format, e.g. +14155550123.',
});

export const CustomerStatus = Type.Enum(['active', 'inactive', 'deactivated']);
export const PreferredContact = Type.Enum(['email', 'sms', 'phone']);

export const Address = Type.Object(
  {
    id: Type.String({ description: 'Prefix addr_.' }),
    label: Type.String(),
    street: Type.String(),
    city: Type.String(),
    state: Type.String(),
    zip: Type.String(),
    is_default: Type.Boolean(),
    access_notes: Nullable(Type.String()),
    created_at: Timestamp,
  },
  { $id: 'Address', title: 'Address' },
);

export const Customer = Type.Object(
  {
    id: Type.String({ description: 'Prefix cust_.' }),
    first_name: Type.String(),
    last_name: Type.String(),
    email: Type.String(),
    phone: Nullable(Type.String()),
    status: CustomerStatus,
    addresses: Type.Array(Type.Ref('Address')),
    stats: Type.Object({
      total_bookings: Type.Integer({ description: 'Bookings not cancelled.' }),
      total_spent: Type.Integer({ description: 'Cents paid, less refunds to the original payment method.' }),
      last_booking_at: Nullable(Timestamp),
      active_subscription: Type.Boolean(),
    }),
    preferences: Type.Object({
      preferred_contact: PreferredContact,
      marketing_opt_in: Type.Boolean(),
    }),
    credit_balance: Type.Integer({ description: 'Account credit in cents (from refunds to account credit).' }),
    metadata: Type.Ref('Metadata'),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Customer', title: 'Customer' },
);

export type CustomerView = Static<typeof Customer>;
export type AddressView = Static<typeof Address>;

const AddressFields = {
  label: Type.Optional(Type.String({ maxLength: 100, description: 'Defaults to "Home".' })),
  street: NonEmpty(200),
  city: NonEmpty(100),
  state: NonEmpty(100),
  zip: Type.String({ pattern: '^[A-Za-z0-9 -]{3,10}$' }),
  access_notes: Type.Optional(Type.String({ maxLength: 2000 })),
};

export const NewAddressBody = Strict({
  ...AddressFields,
  is_default: Type.Optional(Type.Boolean({ description: 'Make this the default address.' })),
});
export type NewAddressBody = Static<typeof NewAddressBody>;

const PreferencesBody = Strict({
  preferred_contact: Type.Optional(PreferredContact),
  marketing_opt_in: Type.Optional(Type.Boolean()),
});

export const NewCustomerBody = Strict({
  first_name: NonEmpty(100),
  last_name: NonEmpty(100),
  email: Type.String({ format: 'email', maxLength: 254 }),
  phone: Type.Optional(E164),
  address: Type.Optional(Strict(AddressFields, { description: 'Becomes the default address.' })),
  preferences: Type.Optional(PreferencesBody),
  metadata: MetadataBody,
});
export type NewCustomerBody = Static<typeof NewCustomerBody>;

export const UpdateCustomerBody = Strict({
  first_name: Type.Optional(NonEmpty(100)),
  last_name: Type.Optional(NonEmpty(100)),
  email: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
  phone: Type.Optional(Nullable(E164)),
  preferences: Type.Optional(PreferencesBody),
  status: Type.Optional(Type.Enum(['active', 'inactive'])),
  metadata: MetadataBody,
});
export type UpdateCustomerBody = Static<typeof UpdateCustomerBody>;

export const CustomerListQuery = Type.Object({
  ...ListQuery,
  search: Type.Optional(
    Type.String({ maxLength: 200, description: 'Case-insensitive match on name, e-mail or phone digits.' }),
  ),
  status: Type.Optional(CustomerStatus),
  created_after: Type.Optional(TimestampOrDate),
  updated_after: Type.Optional(TimestampOrDate),
  has_subscription: Type.Optional(Type.Boolean()),
  zone_id: Type.Optional(Type.String({ description: 'Customers with an address in this zone.' })),
});
export type CustomerListQuery = Static<typeof CustomerListQuery>;

export const CustomerList = ListOf(Type.Ref('Customer'));
