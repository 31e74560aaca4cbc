// Request and response shapes of catalog setup through the API (CONTRACT §11): industries and
// what belongs to one (categories, products, extras). Field rules are the catalog file's own
// (catalog-file.ts), so a value the file accepts the API accepts, and the other way round.
import { type Static, type TObject, type TOptional, type TProperties, type TSchema, Type } from 'typebox';
import { Nullable, Strict } from '../../core/http/schemas.ts';
import { Extra, Product } from './catalog.schemas.ts';
import { ConfigurationType, Icon, Minutes, Money, Name, PriceType, Slug, Text, UnitLabel } from './catalog-file.ts';

const Position = Type.Integer({
  minimum: 0,
  maximum: 10_000,
  description: 'Place in its list, from 0. Setting it moves the item there; new items go last.',
});
const Active = Type.Boolean({ description: 'Inactive industries are not offered (lists, availability, prices).' });
// Left out, the slug is made from the name (see the operations' descriptions).
const NewSlug = Slug;

const RoomProduct = Strict({ name: Name, base_price: Money, minutes: Minutes });

export const NewIndustryBody = Strict({
  name: Name,
  slug: Type.Optional(NewSlug),
  description: Type.Optional(Text),
  icon: Type.Optional(Icon),
  configuration_type: ConfigurationType,
  is_active: Type.Optional(Active),
  position: Type.Optional(Position),
  room_products: Type.Optional(
    Strict(
      { visit: RoomProduct, bedroom: RoomProduct, bathroom: RoomProduct },
      {
        description:
          'room_based only, and required there: the visit, bedroom and bathroom products its price is made of ' +
          '(created in a category "Rooms").',
      },
    ),
  ),
});
export type NewIndustryBody = Static<typeof NewIndustryBody>;

export const IndustryChangesBody = Strict({
  name: Type.Optional(Name),
  description: Type.Optional(Text),
  icon: Type.Optional(Icon),
  is_active: Type.Optional(Active),
  position: Type.Optional(Position),
  slug: Type.Optional(Type.String({ description: 'Fixed after creation: sending it is 400 parameter_invalid.' })),
  configuration_type: Type.Optional(
    Type.String({ description: 'Fixed after creation: sending it is 400 parameter_invalid.' }),
  ),
});
export type IndustryChangesBody = Static<typeof IndustryChangesBody>;

export const IndustryListQuery = Type.Object({
  include_inactive: Type.Optional(
    Type.Boolean({ default: false, description: 'Also list inactive industries (default: active only).' }),
  ),
});

export const CategoryObject = Type.Object(
  {
    id: Type.String({ description: 'Prefix pcat_.' }),
    name: Type.String(),
    slug: Type.String({ description: 'Unique among the industry’s categories.' }),
    position: Type.Integer({ description: 'Place among the industry’s categories, from 0.' }),
  },
  { $id: 'Category', title: 'Category' },
);
export type CategoryObject = Static<typeof CategoryObject>;

export const NewCategoryBody = Strict({ name: Name, slug: Type.Optional(NewSlug), position: Type.Optional(Position) });
export type NewCategoryBody = Static<typeof NewCategoryBody>;
export const CategoryChangesBody = Strict({
  name: Type.Optional(Name),
  slug: Type.Optional(Slug),
  position: Type.Optional(Position),
});
export type CategoryChangesBody = Static<typeof CategoryChangesBody>;

/**
 * A product's or an extra's detail: the fields its list shows (catalog.schemas.ts), with its slug
 * and what else it adds placed around its minutes (the API's order), and its position last.
 */
function itemDetail<
  Listed extends TProperties & { minutes: TSchema },
  Before extends TProperties = Record<never, never>,
  After extends TProperties = Record<never, never>,
>(listed: TObject<Listed>, detail: { $id: string; slug: string; position: string; before?: Before; after?: After }) {
  const { minutes, ...beforeMinutes } = listed.properties;
  return Type.Object(
    {
      ...(beforeMinutes as Omit<Listed, 'minutes'>),
      ...(detail.before as Before),
      slug: Type.String({ description: detail.slug }),
      minutes: minutes as Listed['minutes'],
      ...(detail.after as After),
      position: Type.Integer({ description: detail.position }),
    },
    { $id: detail.$id, title: detail.$id },
  );
}

export const ProductObject = itemDetail(Product, {
  $id: 'ProductDetail',
  before: { category_id: Type.String({ description: 'Prefix pcat_.' }) },
  slug: 'Unique among the industry’s products.',
  after: {
    room: Nullable(
      Type.Enum(['visit', 'bedroom', 'bathroom'], {
        description: 'Read-only. What this product prices in a room_based industry; null otherwise.',
      }),
    ),
  },
  position: 'Place among its category’s products, from 0.',
});
export type ProductObject = Static<typeof ProductObject>;

/** Every field optional, in the same order: a change body, or a new-item body before its required fields. */
function optional<T extends TProperties>(fields: T) {
  return Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, Type.Optional(field)])) as {
    [K in keyof T]: TOptional<T[K]>;
  };
}

const productFields = {
  name: Name,
  slug: NewSlug,
  description: Text,
  base_price: Money,
  minutes: Minutes,
  in_catalog: Type.Boolean({ description: 'Default true: can be ordered as an item or section.' }),
  position: Position,
};
export const NewProductBody = Strict({
  category_id: Type.String({ maxLength: 64, description: 'A category of this industry.' }),
  ...optional(productFields),
  name: productFields.name,
  base_price: productFields.base_price,
  minutes: productFields.minutes,
});
export type NewProductBody = Static<typeof NewProductBody>;
export const ProductChangesBody = Strict({
  category_id: Type.Optional(Type.String({ maxLength: 64, description: 'Moves it to another category.' })),
  ...optional(productFields),
  slug: Type.Optional(Slug),
});
export type ProductChangesBody = Static<typeof ProductChangesBody>;

export const ExtraObject = itemDetail(Extra, {
  $id: 'ExtraDetail',
  slug: 'Unique among the industry’s extras.',
  position: 'Place among the industry’s extras, from 0.',
});
export type ExtraObject = Static<typeof ExtraObject>;

const extraFields = {
  name: Name,
  slug: NewSlug,
  description: Text,
  price: Money,
  price_type: PriceType,
  unit_label: Nullable(UnitLabel),
  minutes: Minutes,
  position: Position,
};
export const NewExtraBody = Strict({ ...optional(extraFields), name: Name, price: Money, price_type: PriceType });
export type NewExtraBody = Static<typeof NewExtraBody>;
export const ExtraChangesBody = Strict({ ...optional(extraFields), slug: Type.Optional(Slug) });
export type ExtraChangesBody = Static<typeof ExtraChangesBody>;
