import { z } from 'zod';
import { DebateSummary } from './debates.ts';
import { UuidInput } from './ids.ts';
import { visibleText } from './text.ts';

export const COLLECTION_NAME_MAX = 100;
export const COLLECTION_DESCRIPTION_MAX = 500;
/** Debates one collection holds at most: bounds the single read and the reorder body. */
export const COLLECTION_ITEMS_MAX = 1000;
/** Collections one user owns at most: bounds GET /api/collections, which is not paginated. */
export const COLLECTIONS_PER_USER_MAX = 1000;

const CollectionName = visibleText(1, COLLECTION_NAME_MAX);
const CollectionDescription = visibleText(1, COLLECTION_DESCRIPTION_MAX);

/** POST /api/collections. */
export const CreateCollectionInput = z.strictObject({
  name: CollectionName,
  description: CollectionDescription.nullable().optional(),
  isPublic: z
    .boolean()
    .default(false)
    .meta({ description: 'Readable by anyone, signed in or not, when true' }),
});
export type CreateCollectionInput = z.infer<typeof CreateCollectionInput>;

export const CollectionIdInput = z.object({ id: UuidInput });

/** PATCH /api/collections/:id: the fields given change, the others keep their values. */
export const UpdateCollectionInput = z.strictObject({
  id: UuidInput,
  name: CollectionName.optional(),
  description: CollectionDescription.nullable().optional().meta({ description: 'null clears it' }),
  isPublic: z.boolean().optional(),
});
export type UpdateCollectionInput = z.infer<typeof UpdateCollectionInput>;

/** POST /api/collections/:id/items. */
export const AddCollectionItemInput = z.strictObject({
  id: UuidInput,
  debateId: UuidInput.meta({ description: "One of the caller's debates" }),
});

/** DELETE /api/collections/:id/items/:debateId. */
export const CollectionItemIdInput = z.object({ id: UuidInput, debateId: UuidInput });

/** Where a value first repeats one before it, or -1. */
function firstRepeat<T>(values: T[]): number {
  const seen = new Set<T>();
  for (const [index, value] of values.entries()) {
    if (seen.has(value)) return index;
    seen.add(value);
  }
  return -1;
}

/**
 * The new place of every debate of a collection. Which debates and how many the collection holds is the
 * server's to check; that no debate and no place is named twice is checked here, naming the first repeat
 * of each (an error lists at most 100 details, and a thousand repeats would say nothing more).
 */
const ItemPlacements = z
  .array(
    z.strictObject({
      debateId: UuidInput,
      order: z
        .number()
        .int()
        .min(0)
        .max(COLLECTION_ITEMS_MAX - 1),
    }),
  )
  .min(1)
  .max(COLLECTION_ITEMS_MAX)
  .superRefine((items, ctx) => {
    const debate = firstRepeat(items.map((item) => item.debateId));
    if (debate >= 0) {
      ctx.addIssue({ code: 'custom', path: [debate, 'debateId'], message: 'This debate is named twice' });
    }
    const order = firstRepeat(items.map((item) => item.order));
    if (order >= 0) {
      ctx.addIssue({ code: 'custom', path: [order, 'order'], message: 'This order is given twice' });
    }
  });

/** PATCH /api/collections/:id/items/reorder: the whole new order (partial reorders are refused). */
export const ReorderCollectionInput = z.strictObject({
  id: UuidInput,
  items: ItemPlacements.meta({
    description:
      'Every debate of the collection exactly once, with orders 0 to n-1 (n debates), each used once',
  }),
});
export type ReorderCollectionInput = z.infer<typeof ReorderCollectionInput>;

/** What a collection shows of each of its debates. */
export const CollectionDebateSummary = DebateSummary.meta({ id: 'CollectionDebateSummary' });

export const CollectionItem = z
  .object({
    debateId: z.uuid(),
    order: z.number().int().meta({ description: '0-indexed place in the collection; no gaps' }),
    addedAt: z.iso.datetime(),
    debate: CollectionDebateSummary,
  })
  .meta({ id: 'CollectionItem' });
export type CollectionItem = z.infer<typeof CollectionItem>;

export const Collection = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    isPublic: z.boolean(),
    userId: z.uuid(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime().meta({ description: 'Last change of its fields or of its debates' }),
  })
  .meta({ id: 'Collection' });
export type Collection = z.infer<typeof Collection>;

/** GET /api/collections/:id: the collection and its debates, in order. */
export const CollectionWithItems = Collection.extend({
  items: z.array(CollectionItem).meta({
    description:
      'Ordered by order. Soft-deleted debates are left out; readers other than the owner see only its ' +
      'public debates.',
  }),
}).meta({ id: 'CollectionWithItems' });
export type CollectionWithItems = z.infer<typeof CollectionWithItems>;

/** GET /api/collections: the caller's collections, newest first, without their items. */
export const CollectionList = z.object({ collections: z.array(Collection) }).meta({ id: 'CollectionList' });
export type CollectionList = z.infer<typeof CollectionList>;
