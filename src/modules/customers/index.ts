export {
  type AddressRow,
  adjustCustomerBalances,
  type CustomerRow,
  countAddresses,
  findAddress,
  findAddressById,
  findCustomer,
} from './customers.repository.ts';
export { customerRoutes } from './customers.routes.ts';
export type { AddressView, CustomerListQuery, CustomerView } from './customers.schemas.ts';
export {
  type AddressRemovalCheck,
  addressView,
  createCustomer,
  customerView,
  getCustomer,
  listCustomers,
} from './customers.service.ts';
