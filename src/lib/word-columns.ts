// Lists of words kept in one text column (a webhook endpoint's events, a postback's events and
// brands): space-separated with a space at each end, so `like '% word %'` matches one exactly.

export const wordsColumn = (words: readonly string[]): string => ` ${words.join(' ')} `;

export const wordsOf = (column: string): string[] => column.trim().split(' ').filter(Boolean);
