import type { PanelMember } from '@verdict/contracts';
import { seatModel } from '@verdict/core';

export type Stance = 'for' | 'against' | 'mixed';
export type Seat = PanelMember & { stance: Stance; brief: string };

/** Distinct roles in the order they join a panel; stances alternate so every panel hears both sides. */
const ROLES: { role: string; stance: Stance; brief: string }[] = [
  { role: 'advocate', stance: 'for', brief: 'Make the strongest honest case for going ahead.' },
  { role: 'skeptic', stance: 'against', brief: 'Find the weakest assumptions and press on them.' },
  { role: 'risk analyst', stance: 'mixed', brief: 'Name the risks, their likelihood and their cost.' },
  { role: 'domain expert', stance: 'for', brief: 'Bring what practitioners in this field know.' },
  { role: 'contrarian', stance: 'against', brief: 'Argue the view nobody else on the panel holds.' },
  { role: 'economist', stance: 'mixed', brief: 'Weigh costs, benefits and opportunity cost in numbers.' },
  { role: 'pragmatist', stance: 'for', brief: 'Say what would actually work, step by step.' },
  { role: 'ethicist', stance: 'against', brief: 'Ask who is affected and whether it is fair to them.' },
];

/**
 * Seats a panel. With several models available, seats rotate through them so neighbours differ (mixed
 * panels argue better than same-model ones).
 */
export function seatPanel(agents: number, models: readonly string[]): Seat[] {
  if (models.length === 0) throw new Error('a panel needs at least one model');
  return Array.from({ length: agents }, (_, i) => {
    const role = ROLES[i % ROLES.length] as (typeof ROLES)[number];
    const lap = Math.floor(i / ROLES.length);
    const title = role.role.replace(/(^|\s)\w/g, (c) => c.toUpperCase());
    return {
      name: lap === 0 ? title : `${title} ${lap + 1}`,
      role: role.role,
      stance: role.stance,
      brief: role.brief,
      // The rotation is core's (routing/debate-models.ts), which the cost estimate seats its panel by.
      model: seatModel(i, models),
    };
  });
}
