/** Dates and figures as the dashboard shows them, in the reader's own locale and time zone. */
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));
export const formatDate = (iso: string) => dateOnly.format(new Date(iso));

/** A 0–1 fraction as a whole percent ("72%"). */
export const percent = (fraction: number) => `${Math.round(fraction * 100)}%`;

/** Enum values such as `partially_correct` or `MORE_INFO_NEEDED`, as words. */
export const humanize = (value: string) => {
  const words = value.replaceAll('_', ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const utcDay = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
/** A UTC calendar day (`2026-11-23T00:00:00Z`) as that same day, wherever the reader is. */
export const formatUtcDay = (iso: string) => utcDay.format(new Date(iso));
