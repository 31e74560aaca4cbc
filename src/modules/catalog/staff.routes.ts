import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../core/deps.ts';
import { created, noContent, ok } from '../../core/http/operation.ts';
import { resourceRoutes } from '../../core/http/resource-routes.ts';
import { routesOf } from '../../core/http/routes.ts';
import type { HeldBookings } from './held-bookings.ts';
import {
  NewStaffBody,
  NewTimeOffBody,
  Staff,
  StaffList,
  StaffListQuery,
  TimeOff,
  TimeOffList,
  TimeOffListQuery,
  UpdateStaffBody,
} from './staff.schemas.ts';
import * as staff from './staff.service.ts';
import * as timeOff from './time-off.service.ts';

const tags = ['Staff'];

export function staffRoutes(app: FastifyInstance, deps: Deps, rules: { heldBookings: HeldBookings }) {
  const route = routesOf(app, deps, { tags });
  resourceRoutes(app, deps, {
    path: '/v1/staff',
    tags,
    noun: ['staff member', 'staff'],
    object: Staff,
    scopes: { read: 'staff:read', write: 'staff:write' },
    list: {
      description: 'Crew members, newest first; filter by `zone_id`, `industry` and `status`.',
      query: StaffListQuery,
      response: StaffList,
      run: staff.listStaff,
    },
    create: {
      description: 'Hours are read in the local time of the zone a job is in.',
      body: NewStaffBody,
      run: staff.createStaff,
    },
    retrieve: { run: staff.getStaff },
    update: {
      description:
        'Fields sent replace the current ones (`zones`, `industries` and `hours` as a whole). A change that would ' +
        'leave a confirmed or in-progress booking outside the new hours, zones or industries, or `status: inactive` ' +
        'while holding one, is 409 resource_in_use naming the bookings. Bookings never move.',
      body: UpdateStaffBody,
      errors: [409],
      errorCodes: ['resource_in_use'],
      run: (deps, tenant, id, body) => staff.updateStaff(deps, tenant, id, body, rules.heldBookings),
    },
    remove: {
      description:
        'Archives the crew member: 404 afterwards, gone from lists and availability; bookings keep the id. One ' +
        'holding confirmed or in-progress bookings that are not over is 409 resource_in_use naming them.',
      errors: [409],
      errorCodes: ['resource_in_use'],
      run: (deps, tenant, id) => staff.deleteStaff(deps, tenant, id, rules.heldBookings),
    },
  });
  app.addSchema(TimeOff);

  route('GET /v1/staff/:id/time_off', 'staff:read', {
    operationId: 'listTimeOff',
    summary: "List a staff member's time off",
    description: 'Newest first.',
    list: TimeOffListQuery,
    response: ok(TimeOffList),
    run: timeOff.listTimeOff,
  });

  route('POST /v1/staff/:id/time_off', 'staff:write', {
    operationId: 'createTimeOff',
    summary: 'Add time off',
    'x-error-codes': ['resource_in_use'],
    description:
      'No slot is offered inside time off from the next request on. Time off over confirmed or in-progress ' +
      'bookings is 409 resource_in_use naming them; over other time off, 409 resource_already_exists.',
    body: NewTimeOffBody,
    response: created(Type.Ref('TimeOff'), 409),
    run: timeOff.createTimeOff,
  });

  route('DELETE /v1/staff/:id/time_off/:time_off_id', 'staff:write', {
    operationId: 'deleteTimeOff',
    summary: 'Remove time off',
    description: 'Removes a period of time off; the staff member can be booked in it again.',
    response: noContent(),
    run: timeOff.deleteTimeOff,
  });
}
