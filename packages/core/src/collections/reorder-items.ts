import type { CollectionWithItems, ReorderCollectionInput, ValidationIssue } from '@verdict/contracts';
import { AppError } from '../shared/app-error.ts';
import { lockOwnCollection } from './collection-access.ts';
import type { CollectionResources } from './collection-resources.ts';
import { readItems, toCollection } from './collection-views.ts';
import { renumber, touch, visibleDebateIds } from './item-positions.ts';

/**
 * The whole new order: every debate of the collection exactly once, with the orders 0 to n-1 each used
 * once (what is sent is what is read back). Anything else, a partial reorder included, is a
 * VALIDATION_ERROR naming each problem.
 */
export const reorderItems =
  ({ db, clock }: CollectionResources) =>
  (
    userId: string,
    collectionId: string,
    items: ReorderCollectionInput['items'],
  ): Promise<CollectionWithItems> =>
    db.em().transactional(async (em) => {
      const row = await lockOwnCollection(em, userId, collectionId);
      const present = await visibleDebateIds(em, collectionId);
      const problems = reorderProblems(present, items);
      if (problems.length) {
        const headline = present.length
          ? `Name every debate of the collection once, with orders 0 to ${present.length - 1}`
          : 'The collection has no debates to reorder';
        throw new AppError('VALIDATION_ERROR', headline, { details: problems });
      }
      await renumber(em, collectionId, items);
      const updatedAt = await touch(em, clock, collectionId);
      return {
        ...toCollection({ ...row, updated_at: updatedAt }),
        items: await readItems(em, collectionId, 'owner'),
      };
    });

/** An error lists at most 100 details (contracts' ERROR_EXTRAS); the first few say what is wrong. */
const REPORTED_PROBLEMS_MAX = 20;

/**
 * Why `items` is not a complete order of the debates `present` (duplicates are refused by the input
 * schema already): a debate it names that is not in the collection, one of the collection it leaves out,
 * an order past the last place. The first REPORTED_PROBLEMS_MAX of them.
 */
export function reorderProblems(
  present: string[],
  items: ReorderCollectionInput['items'],
): ValidationIssue[] {
  const inCollection = new Set(present);
  const named = new Set(items.map((item) => item.debateId));
  const problems: ValidationIssue[] = [];
  items.forEach((item, index) => {
    if (!inCollection.has(item.debateId)) {
      problems.push({
        path: `items.${index}.debateId`,
        message: 'This debate is not in the collection',
        code: 'not_in_collection',
      });
    }
    if (present.length > 0 && item.order >= present.length) {
      problems.push({
        path: `items.${index}.order`,
        message: `Orders run from 0 to ${present.length - 1}, one per debate of the collection`,
        code: 'too_big',
      });
    }
  });
  for (const debateId of present) {
    if (!named.has(debateId)) {
      problems.push({
        path: 'items',
        message: `Debate ${debateId} of the collection is missing: partial reorders are not supported`,
        code: 'missing_item',
      });
    }
  }
  return problems.slice(0, REPORTED_PROBLEMS_MAX);
}
