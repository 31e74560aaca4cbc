// Examples for the OpenAPI document (core/http/openapi.ts): taken from real answers of the API
// to a demo account, so each is what a client will see; a test validates them against their schemas.
import type { Examples } from '../../core/http/openapi.ts';

// A category of the demo's residential cleaning, as the industry's product list shows it.
const homeCleaning = {
  id: 'pcat_Lvc8rCGNuxgmvztGJJqUxDVA',
  name: 'Home cleaning',
  slug: 'home-cleaning',
  products: [
    {
      id: 'prod_gaLgVqwdR7bLFVreklpCzxqq',
      name: 'Home visit',
      base_price: 6000,
      description: 'Kitchen, living areas, dusting and floors.',
      in_catalog: true,
      minutes: 30,
    },
    {
      id: 'prod_67EdD5r196fcneJTGPuwH9Qi',
      name: 'Bedroom',
      base_price: 2000,
      description: 'Per bedroom: dusting, beds made, floors.',
      in_catalog: true,
      minutes: 30,
    },
  ],
};

// The zone and the crew member the create requests below make: their answers are these plus
// the id and what the server fills in.
const newZone = {
  name: 'Brooklyn',
  timezone: 'America/New_York',
  zips: ['11201', '11215'],
  industries: ['residential-cleaning'],
  hours: {
    monday: {
      open: '08:00',
      close: '18:00',
    },
    tuesday: {
      open: '08:00',
      close: '18:00',
    },
    wednesday: {
      open: '08:00',
      close: '18:00',
    },
    thursday: {
      open: '08:00',
      close: '18:00',
    },
    friday: {
      open: '08:00',
      close: '16:00',
    },
    saturday: null,
    sunday: null,
  },
  price_adjustment_percent: 5,
  tax_rate: 8.875,
};

const newStaffMember = {
  name: 'Dana Whitfield',
  email: 'dana@example.com',
  phone: '+17185550111',
  industries: ['residential-cleaning'],
  zones: ['zone_zXaCVgmPdKovTEaXJe7MHVrB'],
  hours: {
    monday: {
      open: '08:00',
      close: '16:00',
    },
    tuesday: {
      open: '08:00',
      close: '16:00',
    },
    wednesday: null,
    thursday: {
      open: '08:00',
      close: '16:00',
    },
    friday: {
      open: '08:00',
      close: '16:00',
    },
    saturday: null,
    sunday: null,
  },
};

// The window product and the screens extra the create requests below make, as lists show them;
// their details add where they sit (the fields in between keep the API's order).
const standardWindow = {
  id: 'prod_zNKkrh0OykoeSXVzYl6fLrs3',
  name: 'Standard window',
  base_price: 1200,
  description: '',
  in_catalog: true,
};

const screens = {
  id: 'extra_9CziXG5eM7uo0LjjAdPWIzSs',
  name: 'Screens',
  description: '',
  price: 300,
  price_type: 'per_unit',
  unit_label: 'screen',
};

// A price quote for the demo's Manhattan zone; a booking carries the same object as its pricing.
export const pricingExample = {
  industry: 'residential-cleaning',
  zone: {
    id: 'zone_V392TO08W0H4MuX57nyFOdkT',
    name: 'Manhattan',
  },
  currency: 'usd',
  base_price: 12500,
  zone_adjustment: 1250,
  extras: [],
  extras_total: 0,
  subtotal: 13750,
  discounts: [],
  discount: 0,
  tax_rate: 8.875,
  tax: 1220,
  total: 14970,
  estimated_duration: 120,
};

export const catalogExamples: Examples = {
  schemas: {
    Industry: {
      id: 'ind_oXoUwFcBeV9aEGza2JmscEde',
      name: 'Window Washing',
      slug: 'window-washing',
      description: 'Inside and out, by the window.',
      icon: '',
      configuration_type: 'item_based',
      is_active: true,
    },
    Product: { ...standardWindow, minutes: 10 },
    ProductCategory: homeCleaning,
    Extra: { ...screens, minutes: 5 },
    Availability: {
      date: '2026-12-02',
      zone: {
        id: 'zone_V392TO08W0H4MuX57nyFOdkT',
        name: 'Manhattan',
        timezone: 'America/New_York',
      },
      available_slots: [
        {
          start: '08:00',
          end: '10:00',
          label: '8:00 AM - 10:00 AM',
          starts_at: '2026-12-02T13:00:00.000Z',
          ends_at: '2026-12-02T15:00:00.000Z',
        },
        {
          start: '09:00',
          end: '11:00',
          label: '9:00 AM - 11:00 AM',
          starts_at: '2026-12-02T14:00:00.000Z',
          ends_at: '2026-12-02T16:00:00.000Z',
        },
      ],
      fully_booked: false,
    },
    Pricing: pricingExample,
    Category: {
      id: 'pcat_ff1tH1LrRkQ35b2WTaMfLQbo',
      name: 'Windows',
      slug: 'windows',
      position: 0,
    },
    ProductDetail: {
      ...standardWindow,
      category_id: 'pcat_ff1tH1LrRkQ35b2WTaMfLQbo',
      slug: 'standard-window',
      minutes: 10,
      room: null,
      position: 0,
    },
    ExtraDetail: {
      ...screens,
      slug: 'screens',
      minutes: 5,
      position: 0,
    },
    Coupon: {
      id: 'coupon_P1RsshJguH8OwkoE49fphqRx',
      object: 'coupon',
      code: 'SPRING15',
      description: '15% off spring cleans',
      percent_off: 15,
      amount_off: null,
      valid_from: null,
      valid_until: '2030-06-01T00:00:00.000Z',
      max_redemptions: 100,
      times_redeemed: 0,
      industries: ['residential-cleaning'],
      is_active: true,
      created_at: '2026-11-24T06:11:24.859Z',
    },
    Settings: {
      object: 'settings',
      business: {
        name: 'Test Co 1',
        email: null,
        phone: null,
      },
      currency: 'usd',
      frequency_discounts: {
        'one-time': 0,
        weekly: 20,
        'bi-weekly': 15,
        monthly: 10,
      },
      cancellation_policy: {
        free_cancellation_hours: 24,
        late_cancellation_fee_percent: 50,
        in_progress_fee_percent: 100,
      },
    },
    Zone: {
      id: 'zone_zXaCVgmPdKovTEaXJe7MHVrB',
      object: 'zone',
      ...newZone,
      slot_interval_minutes: 60,
      travel_buffer_minutes: 0,
      lead_time_minutes: 0,
      is_active: true,
      created_at: '2026-11-24T06:11:24.525Z',
      updated_at: '2026-11-24T06:11:24.525Z',
    },
    Staff: {
      id: 'staff_H9D2SeNkZvWWRCIpOxjbLCB5',
      object: 'staff',
      ...newStaffMember,
      status: 'active',
      created_at: '2026-11-24T06:11:24.727Z',
      updated_at: '2026-11-24T06:11:24.727Z',
    },
    TimeOff: {
      id: 'toff_aUaCbFCxhjlxWnEN1m0Uuqi7',
      object: 'time_off',
      staff_id: 'staff_H9D2SeNkZvWWRCIpOxjbLCB5',
      starts_at: '2026-12-02T13:00:00.000Z',
      ends_at: '2026-12-02T21:00:00.000Z',
      reason: 'Dentist',
      created_at: '2026-11-24T06:11:24.807Z',
    },
  },
  requests: {
    calculatePrice: {
      industry: 'residential-cleaning',
      zip: '10001',
      configuration: {
        bedrooms: 2,
        bathrooms: 1,
        frequency: 'one-time',
      },
    },
    createZone: newZone,
    updateZone: {
      zips: ['11201', '11215', '11217'],
    },
    createStaffMember: newStaffMember,
    updateStaffMember: {
      phone: '+17185550122',
    },
    createTimeOff: {
      starts_at: '2026-12-02T13:00:00Z',
      ends_at: '2026-12-02T21:00:00Z',
      reason: 'Dentist',
    },
    createCoupon: {
      code: 'SPRING15',
      description: '15% off spring cleans',
      percent_off: 15,
      valid_until: '2030-06-01T00:00:00Z',
      max_redemptions: 100,
      industries: ['residential-cleaning'],
    },
    updateCoupon: {
      max_redemptions: 200,
    },
    createIndustry: {
      name: 'Window Washing',
      description: 'Inside and out, by the window.',
      configuration_type: 'item_based',
    },
    updateIndustry: {
      description: 'Inside and out, priced by the window.',
    },
    createProductCategory: {
      name: 'Windows',
    },
    updateProductCategory: {
      name: 'Windows and doors',
    },
    createProduct: {
      category_id: 'pcat_ff1tH1LrRkQ35b2WTaMfLQbo',
      name: 'Standard window',
      base_price: 1200,
      minutes: 10,
    },
    updateProduct: {
      base_price: 1300,
    },
    createExtra: {
      name: 'Screens',
      price: 300,
      price_type: 'per_unit',
      unit_label: 'screen',
      minutes: 5,
    },
    updateExtra: {
      price: 350,
    },
    updateSettings: {
      cancellation_policy: {
        free_cancellation_hours: 48,
      },
    },
  },
  responses: {
    listIndustries: {
      data: [
        {
          id: 'ind_y7UPq3R4IPVFBX2q6LBxKD8e',
          name: 'Residential Cleaning',
          slug: 'residential-cleaning',
          description: 'Recurring and one-time home cleaning, priced by bedrooms and bathrooms.',
          icon: 'sparkles',
          configuration_type: 'room_based',
          is_active: true,
        },
        {
          id: 'ind_zS2Dxd0EJIcoI6O9kORgzTjU',
          name: 'Junk Removal',
          slug: 'junk-removal',
          description: 'Furniture, appliances and bulk loads hauled away and recycled where possible.',
          icon: 'truck',
          configuration_type: 'item_based',
          is_active: true,
        },
      ],
    },
    listIndustryProducts: {
      industry: 'residential-cleaning',
      categories: [homeCleaning],
    },
    listIndustryExtras: {
      data: [
        {
          id: 'extra_LJyRHKk3zEFjFAbyol73vsvp',
          name: 'Inside the fridge',
          description: 'Emptied, wiped and restocked.',
          price: 3500,
          price_type: 'flat',
          unit_label: null,
          minutes: 30,
        },
        {
          id: 'extra_C6EAYZnsWENTvpRB1wjAXZyI',
          name: 'Inside the oven',
          description: 'Degreased racks and walls.',
          price: 3500,
          price_type: 'flat',
          unit_label: null,
          minutes: 30,
        },
      ],
    },
  },
};
