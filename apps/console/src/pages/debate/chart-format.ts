/** A moment's clock time to the millisecond, in the reader's time zone: steps are often milliseconds apart. */
export const clockTime = (iso: string) =>
  new Date(iso).toLocaleTimeString(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    fractionalSecondDigits: 3,
  });

/** Seconds since the timeline began: "+12.345 s". */
export const sinceStart = (iso: string, start: string) =>
  `+${((Date.parse(iso) - Date.parse(start)) / 1000).toFixed(3)} s`;
