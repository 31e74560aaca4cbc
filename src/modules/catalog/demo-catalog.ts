// The demo catalog (CONTRACT §0): a realistic catalog file, loaded by the same import code a
// business uses, into both environments of a demo account.
import { CATALOG_FORMAT, type CatalogFile, type HoursFile } from './catalog-file.ts';

const DAY = { open: '08:00', close: '18:00' };
const MON_SAT: HoursFile = {
  monday: DAY,
  tuesday: DAY,
  wednesday: DAY,
  thursday: DAY,
  friday: DAY,
  saturday: DAY,
  sunday: null,
};
const MON_FRI: HoursFile = { ...MON_SAT, saturday: null };
const TUE_SAT: HoursFile = { ...MON_SAT, monday: null };

const ALL = ['residential-cleaning', 'junk-removal', 'carpet-cleaning'];

const product = (slug: string, name: string, basePrice: number, minutes: number, description = '') => ({
  slug,
  name,
  description,
  base_price: basePrice,
  minutes,
});

export const DEMO_CATALOG: CatalogFile = {
  format: CATALOG_FORMAT,
  settings: {
    frequency_discounts: { 'one-time': 0, weekly: 20, 'bi-weekly': 15, monthly: 10 },
    cancellation_policy: {
      free_cancellation_hours: 24,
      late_cancellation_fee_percent: 50,
      in_progress_fee_percent: 100,
    },
  },
  industries: [
    {
      slug: 'residential-cleaning',
      name: 'Residential Cleaning',
      description: 'Recurring and one-time home cleaning, priced by bedrooms and bathrooms.',
      icon: 'sparkles',
      configuration_type: 'room_based',
      categories: [
        {
          slug: 'home-cleaning',
          name: 'Home cleaning',
          products: [
            {
              ...product('home-visit', 'Home visit', 6000, 30, 'Kitchen, living areas, dusting and floors.'),
              room: 'visit',
            },
            { ...product('bedroom', 'Bedroom', 2000, 30, 'Per bedroom: dusting, beds made, floors.'), room: 'bedroom' },
            {
              ...product('bathroom', 'Bathroom', 2500, 30, 'Per bathroom: fixtures, mirrors, tiles.'),
              room: 'bathroom',
            },
          ],
        },
      ],
      extras: [
        {
          slug: 'inside-fridge',
          name: 'Inside the fridge',
          description: 'Emptied, wiped and restocked.',
          price: 3500,
          price_type: 'flat',
          minutes: 30,
        },
        {
          slug: 'inside-oven',
          name: 'Inside the oven',
          description: 'Degreased racks and walls.',
          price: 3500,
          price_type: 'flat',
          minutes: 30,
        },
        {
          slug: 'inside-cabinets',
          name: 'Inside cabinets',
          description: 'Emptied kitchen cabinets wiped inside.',
          price: 4000,
          price_type: 'flat',
          minutes: 45,
        },
        {
          slug: 'interior-windows',
          name: 'Interior windows',
          description: 'Glass, sills and tracks.',
          price: 500,
          price_type: 'per_unit',
          unit_label: 'window',
          minutes: 10,
        },
        {
          slug: 'laundry',
          name: 'Laundry, wash and fold',
          description: 'Washed, dried and folded on site.',
          price: 1500,
          price_type: 'per_unit',
          unit_label: 'load',
          minutes: 20,
        },
      ],
    },
    {
      slug: 'junk-removal',
      name: 'Junk Removal',
      description: 'Furniture, appliances and bulk loads hauled away and recycled where possible.',
      icon: 'truck',
      configuration_type: 'item_based',
      categories: [
        {
          slug: 'furniture',
          name: 'Furniture',
          products: [
            product('sofa', 'Sofa', 8900, 20),
            product('mattress', 'Mattress or box spring', 6900, 15),
            product('armchair', 'Armchair', 4900, 10),
            product('dresser', 'Dresser', 5900, 15),
            product('dining-table', 'Dining table', 5900, 15),
          ],
        },
        {
          slug: 'appliances',
          name: 'Appliances',
          products: [
            product('refrigerator', 'Refrigerator', 9900, 20, 'Refrigerant recovered by a certified partner.'),
            product('washer-dryer', 'Washer or dryer', 7900, 20),
            product('microwave', 'Microwave', 2500, 5),
          ],
        },
        {
          slug: 'truck-loads',
          name: 'Truck loads',
          products: [
            product('quarter-load', 'Quarter truck load', 17900, 45, 'About 4 cubic yards.'),
            product('half-load', 'Half truck load', 29900, 60, 'About 8 cubic yards.'),
            product('full-load', 'Full truck load', 54900, 90, 'About 16 cubic yards.'),
          ],
        },
      ],
      extras: [
        {
          slug: 'stairs',
          name: 'Stair carry',
          description: 'Per flight of stairs without an elevator.',
          price: 2500,
          price_type: 'per_unit',
          unit_label: 'flight',
          minutes: 10,
        },
        {
          slug: 'disassembly',
          name: 'Disassembly',
          description: 'Taking an item apart to get it out.',
          price: 3000,
          price_type: 'per_unit',
          unit_label: 'item',
          minutes: 15,
        },
        {
          slug: 'same-day',
          name: 'Same-day pickup',
          description: 'Priority dispatch.',
          price: 4900,
          price_type: 'flat',
          minutes: 0,
        },
      ],
    },
    {
      slug: 'carpet-cleaning',
      name: 'Carpet Cleaning',
      description: 'Hot-water extraction for carpets, rugs and upholstery, priced by section.',
      icon: 'vacuum',
      configuration_type: 'section_based',
      categories: [
        {
          slug: 'rooms',
          name: 'Rooms',
          products: [
            product('room', 'Room (up to 200 sq ft)', 4500, 30),
            product('large-room', 'Large room (200-400 sq ft)', 6500, 45),
            product('hallway', 'Hallway', 2500, 15),
            product('staircase', 'Staircase (up to 14 steps)', 4000, 30),
          ],
        },
        {
          slug: 'upholstery',
          name: 'Upholstery',
          products: [
            product('sofa', 'Sofa', 9900, 45),
            product('loveseat', 'Loveseat', 7900, 35),
            product('armchair', 'Armchair', 4900, 25),
          ],
        },
        {
          slug: 'rugs',
          name: 'Area rugs',
          products: [
            product('rug-small', 'Area rug (up to 5x8 ft)', 5900, 30),
            product('rug-large', 'Area rug (8x10 ft and larger)', 8900, 45),
          ],
        },
      ],
      extras: [
        {
          slug: 'stain-protection',
          name: 'Stain protection',
          description: 'Fluorine-free protector.',
          price: 1500,
          price_type: 'per_unit',
          unit_label: 'room',
          minutes: 10,
        },
        {
          slug: 'pet-odor',
          name: 'Pet odor treatment',
          description: 'Enzyme treatment of the pad.',
          price: 2500,
          price_type: 'per_unit',
          unit_label: 'room',
          minutes: 15,
        },
        {
          slug: 'move-furniture',
          name: 'Move furniture',
          description: 'Heavy furniture moved and put back.',
          price: 2900,
          price_type: 'flat',
          minutes: 20,
        },
        {
          slug: 'deodorizer',
          name: 'Deodorizer',
          description: 'Fresh-scent finish.',
          price: 1500,
          price_type: 'flat',
          minutes: 5,
        },
      ],
    },
  ],
  zones: [
    {
      name: 'Manhattan',
      timezone: 'America/New_York',
      zips: ['10001', '10002', '10003'],
      industries: ALL,
      hours: MON_SAT,
      slot_interval_minutes: 60,
      travel_buffer_minutes: 30,
      lead_time_minutes: 120,
      price_adjustment_percent: 10,
      tax_rate: 8.875,
    },
    {
      name: 'San Francisco',
      timezone: 'America/Los_Angeles',
      zips: ['94103', '94107', '94110'],
      industries: ALL,
      hours: MON_SAT,
      slot_interval_minutes: 60,
      travel_buffer_minutes: 30,
      lead_time_minutes: 120,
      price_adjustment_percent: 0,
      tax_rate: 8.625,
    },
  ],
  staff: [
    { name: 'Maria Lopez', email: 'maria@demo.fieldhand.dev', zones: ['Manhattan'], industries: ALL, hours: MON_FRI },
    { name: 'James Carter', email: 'james@demo.fieldhand.dev', zones: ['Manhattan'], industries: ALL, hours: TUE_SAT },
    {
      name: 'Aisha Khan',
      email: 'aisha@demo.fieldhand.dev',
      zones: ['Manhattan'],
      industries: ['residential-cleaning', 'carpet-cleaning'],
      hours: MON_SAT,
    },
    {
      name: 'Dmitri Petrov',
      email: 'dmitri@demo.fieldhand.dev',
      zones: ['Manhattan'],
      industries: ['junk-removal'],
      hours: MON_SAT,
    },
    { name: 'Grace Kim', email: 'grace@demo.fieldhand.dev', zones: ['San Francisco'], industries: ALL, hours: MON_FRI },
    {
      name: 'Luis Hernandez',
      email: 'luis@demo.fieldhand.dev',
      zones: ['San Francisco'],
      industries: ALL,
      hours: TUE_SAT,
    },
    {
      name: 'Priya Nair',
      email: 'priya@demo.fieldhand.dev',
      zones: ['San Francisco'],
      industries: ['residential-cleaning', 'carpet-cleaning'],
      hours: MON_SAT,
    },
    {
      name: 'Tom Becker',
      email: 'tom@demo.fieldhand.dev',
      zones: ['San Francisco'],
      industries: ['junk-removal'],
      hours: MON_SAT,
    },
  ],
  coupons: [
    { code: 'WELCOME10', description: '10% off for new customers.', percent_off: 10 },
    { code: 'SAVE20', description: '$20 off any service.', amount_off: 2000 },
    {
      code: 'CARPET15',
      description: '15% off carpet cleaning.',
      percent_off: 15,
      industries: ['carpet-cleaning'],
      max_redemptions: 500,
    },
  ],
};
