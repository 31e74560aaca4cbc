import { periodStart } from '../../core/dates.ts';
import { constraintViolated, isoTimestamp, type SQL } from '../../core/db.ts';
import { type Deps, inTransaction } from '../../core/deps.ts';
import { AppError, found, invalidParameter, notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { mergeMetadata, metadataFilter, metadataView } from '../../core/metadata.ts';
import { type Page, pageOf, pageRequest, parseIds } from '../../core/paging.ts';
import type { Tenant } from '../../core/tenant.ts';
import { businessProfile, zoneZips } from '../catalog/index.ts';
import * as repository from './customers.repository.ts';
import type {
  AddressView,
  CustomerListQuery,
  CustomerView,
  NewAddressBody,
  NewCustomerBody,
  UpdateCustomerBody,
} from './customers.schemas.ts';

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
    metadata: metadataView(row.metadata),
    created_at: isoTimestamp(row.created_at),
    updated_at: isoTimestamp(row.updated_at),
  };
}

/** The customer as the API returns it; throws 404 for a missing or foreign id. */
export async function getCustomer(deps: Deps, tenant: Tenant, id: string): Promise<CustomerView> {
  const row = found(await repository.findCustomerWithAddresses(deps.db, tenant, id), 'customer', id);
  return customerView(row, row.addresses);
}

function emailTaken(email: string): AppError {
  return new AppError('resource_already_exists', `A customer with e-mail ${email} already exists.`, {
    param: 'email',
  });
}

/** The address fields as a new row: label "Home" unless given. */
function newAddress(customerId: string, input: NewAddressBody, isDefault: boolean) {
  return {
    id: newId('address'),
    customer_id: customerId,
    label: input.label || 'Home',
    street: input.street,
    city: input.city,
    state: input.state,
    zip: input.zip,
    access_notes: input.access_notes ?? null,
    is_default: isDefault,
  };
}

export async function createCustomer(deps: Deps, tenant: Tenant, input: NewCustomerBody) {
  const now = deps.clock.now();
  const id = newId('customer');
  try {
    const customer = await inTransaction(deps, async (deps) => {
      await repository.insertCustomer(deps.db, tenant, {
        id,
        firstName: input.first_name.trim(),
        lastName: input.last_name.trim(),
        email: input.email.trim(),
        phone: input.phone ?? null,
        preferences: { ...DEFAULT_PREFERENCES, ...input.preferences },
        metadata: mergeMetadata({}, input.metadata),
        now,
      });
      if (input.address) await repository.insertAddress(deps.db, tenant, newAddress(id, input.address, true), now);
      const created = await getCustomer(deps, tenant, id);
      const business = (await businessProfile(deps, tenant)).name;
      await deps.mailer.queue(deps.db, tenant, {
        kind: 'customer_invitation',
        to: created.email,
        subject: `${business} invited you to book online`,
        text:
          `Hello ${created.first_name},\n\n${business} has set up an account for you, so you can ` +
          'book, reschedule and pay for visits online.\n\nSee you soon!\n',
      });
      await deps.events.publish(deps.db, tenant, 'customer.created', created, now);
      return created;
    });
    deps.mailer.wake();
    return customer;
  } catch (error) {
    if (constraintViolated(error, 'customers_email_unique')) throw emailTaken(input.email);
    throw error;
  }
}

export async function listCustomers(deps: Deps, tenant: Tenant, query: CustomerListQuery): Promise<Page<CustomerView>> {
  const page = pageRequest(query);
  const found = await repository.listCustomers(
    deps.db,
    tenant,
    {
      search: query.search,
      status: query.status,
      createdAfter: periodStart(query.created_after),
      updatedAfter: periodStart(query.updated_after),
      hasSubscription: query.has_subscription,
      zips: query.zone_id === undefined ? undefined : await zoneZips(deps, tenant, query.zone_id),
      ids: parseIds(query.ids, 'cust'),
      metadata: metadataFilter(query),
    },
    page,
  );
  return pageOf(page, found, (row) => customerView(row, row.addresses));
}

export async function updateCustomer(deps: Deps, tenant: Tenant, id: string, input: UpdateCustomerBody) {
  const now = deps.clock.now();
  try {
    return await inTransaction(deps, async (deps) => {
      const current = await lockedRow(deps, tenant, id);
      if (input.status !== undefined && current.status === 'deactivated') {
        throw new AppError(
          'invalid_state_transition',
          'A deactivated customer cannot be made active or inactive again.',
          { param: 'status' },
        );
      }
      await repository.updateCustomer(
        deps.db,
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
          metadata: input.metadata ? mergeMetadata(current.metadata, input.metadata) : undefined,
        },
        now,
      );
      const updated = await getCustomer(deps, tenant, id);
      await deps.events.publish(deps.db, tenant, 'customer.updated', updated, now);
      return updated;
    });
  } catch (error) {
    if (constraintViolated(error, 'customers_email_unique')) throw emailTaken(input.email ?? '');
    throw error;
  }
}

export async function deactivateCustomer(deps: Deps, tenant: Tenant, id: string) {
  const now = deps.clock.now();
  return inTransaction(deps, async (deps) => {
    const current = await lockedRow(deps, tenant, id);
    // Deactivating twice is a no-op, so a retried request is harmless.
    if (current.status === 'deactivated') return getCustomer(deps, tenant, id);
    await repository.updateCustomer(deps.db, tenant, id, { status: 'deactivated' }, now);
    const updated = await getCustomer(deps, tenant, id);
    await deps.events.publish(deps.db, tenant, 'customer.deactivated', updated, now);
    return updated;
  });
}

/** The customer changed through an address: touch it and tell subscribers. */
async function addressesChanged(deps: Deps, tenant: Tenant, customerId: string, now: Date) {
  await repository.updateCustomer(deps.db, tenant, customerId, {}, now);
  await deps.events.publish(deps.db, tenant, 'customer.updated', await getCustomer(deps, tenant, customerId), now);
}

export async function addAddress(deps: Deps, tenant: Tenant, customerId: string, input: NewAddressBody) {
  const now = deps.clock.now();
  return inTransaction(deps, async (deps) => {
    await lockedRow(deps, tenant, customerId);
    const first = (await repository.countAddresses(deps.db, tenant, customerId)) === 0;
    const isDefault = first || input.is_default === true;
    if (isDefault) await repository.clearDefaultAddress(deps.db, tenant, customerId);
    const address = newAddress(customerId, input, isDefault);
    await repository.insertAddress(deps.db, tenant, address, now);
    await addressesChanged(deps, tenant, customerId, now);
    const added = await repository.findAddress(deps.db, tenant, customerId, address.id);
    if (!added) throw new Error('address vanished inside its own transaction');
    return addressView(added);
  });
}

/**
 * Whether the customer has bookings still to be done; supplied by the bookings module, which
 * customers cannot import (bookings imports customers).
 */
export type OpenBookingsCheck = (deps: Deps, tenant: Tenant, customerId: string) => Promise<boolean>;

/** An address that open bookings still need cannot be the customer's last (409 address_required). */
export async function removeAddress(
  deps: Deps,
  tenant: Tenant,
  customerId: string,
  addressId: string,
  hasOpenBookings?: OpenBookingsCheck,
) {
  const now = deps.clock.now();
  await inTransaction(deps, async (deps) => {
    await lockedRow(deps, tenant, customerId);
    const address = await repository.findAddress(deps.db, tenant, customerId, addressId);
    if (!address) throw notFound('address', addressId);
    const last = (await repository.countAddresses(deps.db, tenant, customerId)) <= 1;
    if (last && (await hasOpenBookings?.(deps, tenant, customerId))) {
      throw new AppError(
        'address_required',
        'This is the last address of a customer with open bookings; add another address first.',
      );
    }
    await repository.removeAddress(deps.db, tenant, customerId, addressId, now);
    await addressesChanged(deps, tenant, customerId, now);
  });
}

// What other modules do with customers, each in the caller's transaction (tx-bound deps).

export type { BookingStats } from './customers.repository.ts';

async function lockedRow(deps: Deps, tenant: Tenant, id: string, param?: string) {
  return found(await repository.findCustomer(deps.db, tenant, id, { forUpdate: true }), 'customer', id, param);
}

/**
 * Locks the customer's row until the caller's transaction ends: bookings, payments and invoices
 * of one customer queue here. 404 (`param`: 400) for a missing or foreign id.
 */
export async function lockCustomer(
  deps: Deps,
  tenant: Tenant,
  id: string,
  param?: string,
): Promise<Pick<CustomerView, 'id' | 'status'>> {
  const row = await lockedRow(deps, tenant, id, param);
  return { id: row.id, status: row.status };
}

/** Throws 404 unless the customer exists in this environment. */
export async function requireCustomer(deps: Deps, tenant: Tenant, id: string): Promise<void> {
  if (!(await repository.findCustomer(deps.db, tenant, id))) throw notFound('customer', id);
}

/**
 * One of the customer's live addresses, as a booking names it (`param`): another customer's is
 * 400 parameter_invalid, none 400 resource_not_found.
 */
export async function customerAddress(
  deps: Deps,
  tenant: Tenant,
  input: { customerId: string; addressId: string; param: string },
): Promise<AddressView> {
  const address = await repository.findAddress(deps.db, tenant, input.customerId, input.addressId);
  return address ? addressView(address) : refuseAddress(deps, tenant, input);
}

async function refuseAddress(deps: Deps, tenant: Tenant, input: { addressId: string; param: string }): Promise<never> {
  if (await repository.findAddressById(deps.db, tenant, input.addressId)) {
    throw invalidParameter(input.param, 'That address belongs to another customer.');
  }
  throw notFound('address', input.addressId, input.param);
}

/**
 * The customer of a new booking, its row locked, and the address it names, in one round trip:
 * 404 for a missing customer, 409 customer_deactivated (a deactivated customer makes no new
 * bookings), then the address's refusals, in that order.
 */
export async function lockCustomerForBooking(
  deps: Deps,
  tenant: Tenant,
  input: { customerId: string; customerParam: string; addressId: string; addressParam: string },
): Promise<{ customerId: string; address: AddressView }> {
  const row = found(
    await repository.lockCustomerWithAddress(deps.db, tenant, input.customerId, input.addressId),
    'customer',
    input.customerId,
    input.customerParam,
  );
  if (row.status === 'deactivated') {
    throw new AppError('customer_deactivated', 'This customer is deactivated and cannot make new bookings.', {
      param: input.customerParam,
    });
  }
  const address = row.address
    ? addressView(row.address)
    : await refuseAddress(deps, tenant, { addressId: input.addressId, param: input.addressParam });
  return { customerId: row.id, address };
}

/** Stores the booking figures bookings counted from its own rows (the customer's `stats`). */
export function setBookingStats(
  deps: Deps,
  tenant: Tenant,
  customerId: string,
  stats: repository.BookingStats,
): Promise<void> {
  return repository.setBookingStats(deps.db, tenant, customerId, stats);
}

/**
 * `setBookingStats` for the statement that inserts a booking (which counts them): `stats` names
 * the relation of its one row of stats_total, stats_last and stats_subscribed.
 */
export function bookingStatsWrite(tenant: Tenant, customerId: string, stats: SQL): SQL {
  return repository.bookingStatsUpdate(tenant, customerId, stats);
}

/**
 * Moves the customer's money stats: `spent` (cents paid, less refunds to the original method)
 * and `credit` (account credit from refunds).
 */
export function adjustCustomerBalances(
  deps: Deps,
  tenant: Tenant,
  customerId: string,
  change: { spent?: number; credit?: number },
): Promise<void> {
  return repository.adjustCustomerBalances(deps.db, tenant, customerId, change);
}

/**
 * `adjustCustomerBalances` as a statement, for the one that stores the change's events (one
 * round trip for both). The caller holds the customer's lock already.
 */
export function customerBalancesWrite(tenant: Tenant, customerId: string, change: { spent?: number; credit?: number }) {
  return repository.balancesUpdate(tenant, customerId, change);
}
