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
const HOME_AND_CARPET = ['residential-cleaning', 'carpet-cleaning'];

const product = (slug: string, name: string, basePrice: number, minutes: number, description = '') => ({
  slug,
  name,
  description,
  base_price: basePrice,
  minutes,
});

const flatExtra = (slug: string, name: string, description: string, price: number, minutes: number) => ({
  slug,
  name,
  description,
  price,
  price_type: 'flat' as const,
  minutes,
});
const perUnitExtra = (
  slug: string,
  name: string,
  description: string,
  price: number,
  unit: string,
  minutes: number,
) => ({
  ...flatExtra(slug, name, description, price, minutes),
  price_type: 'per_unit' as const,
  unit_label: unit,
});

type IndustryFile = CatalogFile['industries'][number];
const industry = (
  names: Pick<IndustryFile, 'slug' | 'name' | 'icon' | 'configuration_type'>,
  description: string,
  categories: IndustryFile['categories'],
  extras: IndustryFile['extras'],
): IndustryFile => ({ ...names, description, categories, extras });
type CategoryFile = CatalogFile['industries'][number]['categories'][number];
const category = (slug: string, name: string, products: CategoryFile['products']): CategoryFile => ({
  slug,
  name,
  products,
});

/** A zone open Monday to Saturday for every demo industry, with hourly slots. */
const zone = (name: string, timezone: string, zips: string[], priceAdjustmentPercent: number, taxRate: number) => ({
  name,
  timezone,
  zips,
  industries: ALL,
  hours: MON_SAT,
  slot_interval_minutes: 60,
  travel_buffer_minutes: 30,
  lead_time_minutes: 120,
  price_adjustment_percent: priceAdjustmentPercent,
  tax_rate: taxRate,
});

const crewMember = (name: string, email: string, zone: string, industries: string[], hours: HoursFile) => ({
  name,
  email,
  zones: [zone],
  industries,
  hours,
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
    industry(
      {
        slug: 'residential-cleaning',
        name: 'Residential Cleaning',
        icon: 'sparkles',
        configuration_type: 'room_based',
      },
      'Recurring and one-time home cleaning, priced by bedrooms and bathrooms.',
      [
        category('home-cleaning', 'Home cleaning', [
          {
            ...product('home-visit', 'Home visit', 6000, 30, 'Kitchen, living areas, dusting and floors.'),
            room: 'visit',
          },
          { ...product('bedroom', 'Bedroom', 2000, 30, 'Per bedroom: dusting, beds made, floors.'), room: 'bedroom' },
          {
            ...product('bathroom', 'Bathroom', 2500, 30, 'Per bathroom: fixtures, mirrors, tiles.'),
            room: 'bathroom',
          },
        ]),
      ],
      [
        flatExtra('inside-fridge', 'Inside the fridge', 'Emptied, wiped and restocked.', 3500, 30),
        flatExtra('inside-oven', 'Inside the oven', 'Degreased racks and walls.', 3500, 30),
        flatExtra('inside-cabinets', 'Inside cabinets', 'Emptied kitchen cabinets wiped inside.', 4000, 45),
        perUnitExtra('interior-windows', 'Interior windows', 'Glass, sills and tracks.', 500, 'window', 10),
        perUnitExtra('laundry', 'Laundry, wash and fold', 'Washed, dried and folded on site.', 1500, 'load', 20),
      ],
    ),
    industry(
      { slug: 'junk-removal', name: 'Junk Removal', icon: 'truck', configuration_type: 'item_based' },
      'Furniture, appliances and bulk loads hauled away and recycled where possible.',
      [
        category('furniture', 'Furniture', [
          product('sofa', 'Sofa', 8900, 20),
          product('mattress', 'Mattress or box spring', 6900, 15),
          product('armchair', 'Armchair', 4900, 10),
          product('dresser', 'Dresser', 5900, 15),
          product('dining-table', 'Dining table', 5900, 15),
        ]),
        category('appliances', 'Appliances', [
          product('refrigerator', 'Refrigerator', 9900, 20, 'Refrigerant recovered by a certified partner.'),
          product('washer-dryer', 'Washer or dryer', 7900, 20),
          product('microwave', 'Microwave', 2500, 5),
        ]),
        category('truck-loads', 'Truck loads', [
          product('quarter-load', 'Quarter truck load', 17900, 45, 'About 4 cubic yards.'),
          product('half-load', 'Half truck load', 29900, 60, 'About 8 cubic yards.'),
          product('full-load', 'Full truck load', 54900, 90, 'About 16 cubic yards.'),
        ]),
      ],
      [
        perUnitExtra('stairs', 'Stair carry', 'Per flight of stairs without an elevator.', 2500, 'flight', 10),
        perUnitExtra('disassembly', 'Disassembly', 'Taking an item apart to get it out.', 3000, 'item', 15),
        flatExtra('same-day', 'Same-day pickup', 'Priority dispatch.', 4900, 0),
      ],
    ),
    industry(
      { slug: 'carpet-cleaning', name: 'Carpet Cleaning', icon: 'vacuum', configuration_type: 'section_based' },
      'Hot-water extraction for carpets, rugs and upholstery, priced by section.',
      [
        category('rooms', 'Rooms', [
          product('room', 'Room (up to 200 sq ft)', 4500, 30),
          product('large-room', 'Large room (200-400 sq ft)', 6500, 45),
          product('hallway', 'Hallway', 2500, 15),
          product('staircase', 'Staircase (up to 14 steps)', 4000, 30),
        ]),
        category('upholstery', 'Upholstery', [
          product('sofa', 'Sofa', 9900, 45),
          product('loveseat', 'Loveseat', 7900, 35),
          product('armchair', 'Armchair', 4900, 25),
        ]),
        category('rugs', 'Area rugs', [
          product('rug-small', 'Area rug (up to 5x8 ft)', 5900, 30),
          product('rug-large', 'Area rug (8x10 ft and larger)', 8900, 45),
        ]),
      ],
      [
        perUnitExtra('stain-protection', 'Stain protection', 'Fluorine-free protector.', 1500, 'room', 10),
        perUnitExtra('pet-odor', 'Pet odor treatment', 'Enzyme treatment of the pad.', 2500, 'room', 15),
        flatExtra('move-furniture', 'Move furniture', 'Heavy furniture moved and put back.', 2900, 20),
        flatExtra('deodorizer', 'Deodorizer', 'Fresh-scent finish.', 1500, 5),
      ],
    ),
  ],
  zones: [
    zone('Manhattan', 'America/New_York', ['10001', '10002', '10003'], 10, 8.875),
    zone('San Francisco', 'America/Los_Angeles', ['94103', '94107', '94110'], 0, 8.625),
  ],
  staff: [
    crewMember('Maria Lopez', 'maria@demo.fieldhand.dev', 'Manhattan', ALL, MON_FRI),
    crewMember('James Carter', 'james@demo.fieldhand.dev', 'Manhattan', ALL, TUE_SAT),
    crewMember('Aisha Khan', 'aisha@demo.fieldhand.dev', 'Manhattan', HOME_AND_CARPET, MON_SAT),
    crewMember('Dmitri Petrov', 'dmitri@demo.fieldhand.dev', 'Manhattan', ['junk-removal'], MON_SAT),
    crewMember('Grace Kim', 'grace@demo.fieldhand.dev', 'San Francisco', ALL, MON_FRI),
    crewMember('Luis Hernandez', 'luis@demo.fieldhand.dev', 'San Francisco', ALL, TUE_SAT),
    crewMember('Priya Nair', 'priya@demo.fieldhand.dev', 'San Francisco', HOME_AND_CARPET, MON_SAT),
    crewMember('Tom Becker', 'tom@demo.fieldhand.dev', 'San Francisco', ['junk-removal'], MON_SAT),
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
