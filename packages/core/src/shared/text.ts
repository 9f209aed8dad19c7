/** `text` cut to at most `max` characters, with an ellipsis when it was cut (for notification messages). */
export const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
