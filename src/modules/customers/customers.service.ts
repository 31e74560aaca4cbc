import { periodStart } from '../../core/dates.ts';
import { constraintViolated, isoTimestamp, type Sql, transaction } from '../../core/db.ts';
import type { Deps } from '../../core/deps.ts';
import { AppError, notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { pageRequest, pagination, parseIds } from '../../core/paging.ts';
import type { Tenant } from '../../core/tenant.ts';
import * as repository from './customers.repository.ts';
import type {
  AddressView,
  CustomerListQuery,
  CustomerView,
  NewAddressBody,
  NewCustomerBody,
  UpdateCustomerBody,
} from './customers.schemas.ts';

export type CustomerDeps = Deps;

const DEFAULT_PREFERENCES = { preferred_contact: 'email', marketing_opt_in: false } as const;

export function addressView(row: repository.AddressRow): AddressView {
  return {
    id: row.id,
    label: row.label,
    street: row.street,
    city: row.city,
    state: row.state,
    zip: row.zip,
    is_default: row.is_default,
    access_notes: row.access_notes,
    created_at: isoTimestamp(row.created_at),
  };
}

export function customerView(row: repository.CustomerRow, addresses: repository.AddressRow[]): CustomerView {
  return {
    id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    phone: row.phone,
    status: row.status,
    addresses: addresses.map(addressView),
    stats: {
      total_bookings: row.total_bookings,
      total_spent: row.total_spent,
      last_booking_at: isoTimestamp(row.last_booking_at),
      active_subscription: row.active_subscription,
    },
    preferences: { ...DEFAULT_PREFERENCES, ...row.preferences },
    credit_balance: row.credit_balance,
    created_at: isoTimestamp(row.created_at),
    updated_at: isoTimestamp(row.updated_at),
  };
}

/** The customer as the API returns it; throws 404 for a missing or foreign id. */
export async function getCustomer(db: Sql, tenant: Tenant, id: string, param?: string): Promise<CustomerView> {
  const row = await repository.findCustomerWithAddresses(db, tenant, id);
  if (!row) throw notFound('customer', id, param);
  return customerView(row, row.addresses);
}

function emailTaken(email: string): AppError {
  return new AppError('resource_already_exists', `A customer with e-mail ${email} already exists.`, {
    param: 'email',
  });
}

export async function createCustomer(deps: CustomerDeps, tenant: Tenant, input: NewCustomerBody) {
  const now = deps.clock.now();
  const id = newId('customer');
  try {
    const customer = await transaction(deps.db, async (tx) => {
      await repository.insertCustomer(tx, tenant, {
        id,
        firstName: input.first_name.trim(),
        lastName: input.last_name.trim(),
        email: input.email.trim(),
        phone: input.phone ?? null,
        preferences: { ...DEFAULT_PREFERENCES, ...input.preferences },
        now,
      });
      if (input.address) {
        await repository.insertAddress(
          tx,
          tenant,
          {
            id: newId('address'),
            customer_id: id,
            label: input.address.label || 'Home',
            street: input.address.street,
            city: input.address.city,
            state: input.address.state,
            zip: input.address.zip,
            access_notes: input.address.access_notes ?? null,
            is_default: true,
          },
          now,
        );
      }
      const created = await getCustomer(tx, tenant, id);
      const business = await repository.findAccountName(tx, tenant);
      await deps.mailer.queue(tx, tenant, {
        kind: 'customer_invitation',
        to: created.email,
        subject: `${business} invited you to book online`,
        text:
          `Hello ${created.first_name},\n\n${business} has set up an account for you, so you can ` +
          'book, reschedule and pay for visits online.\n\nSee you soon!\n',
      });
      await deps.events.publish(tx, tenant, 'customer.created', created, now);
      return created;
    });
    deps.mailer.wake();
    return customer;
  } catch (error) {
    if (constraintViolated(error, 'customers_email_unique')) throw emailTaken(input.email);
    throw error;
  }
}

export async function listCustomers(db: Sql, tenant: Tenant, query: CustomerListQuery) {
  const page = pageRequest(query);
  const { rows, total } = await repository.listCustomers(
    db,
    tenant,
    {
      search: query.search,
      status: query.status,
      createdAfter: periodStart(query.created_after),
      updatedAfter: periodStart(query.updated_after),
      hasSubscription: query.has_subscription,
      zoneId: query.zone_id,
      ids: parseIds(query.ids, 'cust'),
    },
    page,
  );
  const addresses = await repository.listAddresses(
    db,
    tenant,
    rows.map((row) => row.id),
  );
  return {
    data: rows.map((row) =>
      customerView(
        row,
        addresses.filter((a) => a.customer_id === row.id),
      ),
    ),
    pagination: pagination(page, total),
  };
}

export async function updateCustomer(deps: CustomerDeps, tenant: Tenant, id: string, input: UpdateCustomerBody) {
  const now = deps.clock.now();
  try {
    return await transaction(deps.db, async (tx) => {
      const current = await repository.findCustomer(tx, tenant, id, { forUpdate: true });
      if (!current) throw notFound('customer', id);
      if (input.status !== undefined && current.status === 'deactivated') {
        throw new AppError(
          'invalid_state_transition',
          'A deactivated customer cannot be made active or inactive again.',
          { param: 'status' },
        );
      }
      await repository.updateCustomer(
        tx,
        tenant,
        id,
        {
          first_name: input.first_name?.trim(),
          last_name: input.last_name?.trim(),
          email: input.email?.trim(),
          phone: input.phone,
          status: input.status,
          // preferences merge key by key
          preferences: input.preferences ? { ...current.preferences, ...input.preferences } : undefined,
        },
        now,
      );
      const updated = await getCustomer(tx, tenant, id);
      await deps.events.publish(tx, tenant, 'customer.updated', updated, now);
      return updated;
    });
  } catch (error) {
    if (constraintViolated(error, 'customers_email_unique')) throw emailTaken(input.email ?? '');
    throw error;
  }
}

export async function deactivateCustomer(deps: CustomerDeps, tenant: Tenant, id: string) {
  const now = deps.clock.now();
  return transaction(deps.db, async (tx) => {
    const current = await repository.findCustomer(tx, tenant, id, { forUpdate: true });
    if (!current) throw notFound('customer', id);
    // Deactivating twice is a no-op, so a retried request is harmless.
    if (current.status === 'deactivated') return getCustomer(tx, tenant, id);
    await repository.updateCustomer(tx, tenant, id, { status: 'deactivated' }, now);
    const updated = await getCustomer(tx, tenant, id);
    await deps.events.publish(tx, tenant, 'customer.deactivated', updated, now);
    return updated;
  });
}

export async function addAddress(deps: CustomerDeps, tenant: Tenant, customerId: string, input: NewAddressBody) {
  const now = deps.clock.now();
  return transaction(deps.db, async (tx) => {
    const customer = await repository.findCustomer(tx, tenant, customerId, { forUpdate: true });
    if (!customer) throw notFound('customer', customerId);
    const first = (await repository.countAddresses(tx, tenant, customerId)) === 0;
    const isDefault = first || input.is_default === true;
    if (isDefault) await repository.clearDefaultAddress(tx, tenant, customerId);
    const id = newId('address');
    await repository.insertAddress(
      tx,
      tenant,
      {
        id,
        customer_id: customerId,
        label: input.label || 'Home',
        street: input.street,
        city: input.city,
        state: input.state,
        zip: input.zip,
        access_notes: input.access_notes ?? null,
        is_default: isDefault,
      },
      now,
    );
    await repository.updateCustomer(tx, tenant, customerId, {}, now);
    await deps.events.publish(tx, tenant, 'customer.updated', await getCustomer(tx, tenant, customerId), now);
    const address = await repository.findAddress(tx, tenant, customerId, id);
    if (!address) throw new Error('address vanished inside its own transaction');
    return addressView(address);
  });
}

/**
 * Checks whether an address may go; supplied by the bookings module (an address that open
 * bookings still need cannot be the customer's last).
 */
export type AddressRemovalCheck = (tx: Sql, tenant: Tenant, customerId: string, addressId: string) => Promise<void>;

export async function removeAddress(
  deps: CustomerDeps & { checkAddressRemoval?: AddressRemovalCheck },
  tenant: Tenant,
  customerId: string,
  addressId: string,
) {
  const now = deps.clock.now();
  await transaction(deps.db, async (tx) => {
    const customer = await repository.findCustomer(tx, tenant, customerId, { forUpdate: true });
    if (!customer) throw notFound('customer', customerId);
    const address = await repository.findAddress(tx, tenant, customerId, addressId);
    if (!address) throw notFound('address', addressId);
    await deps.checkAddressRemoval?.(tx, tenant, customerId, addressId);
    await repository.removeAddress(tx, tenant, addressId, now);
    await repository.promoteDefaultAddress(tx, tenant, customerId);
    await repository.updateCustomer(tx, tenant, customerId, {}, now);
    await deps.events.publish(tx, tenant, 'customer.updated', await getCustomer(tx, tenant, customerId), now);
  });
}
