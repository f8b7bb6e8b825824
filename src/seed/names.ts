// Names derived from names, for generated data (demo data, benchmark data sets).

/** "Bean & Barrel Coffee" → "bean-and-barrel-coffee". */
export const slugOf = (name: string): string =>
  name
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Short upper-case tag of a brand (initials), used in coupon codes and brand order ids. */
export const tagOf = (slug: string): string =>
  slug
    .split('-')
    .filter((w) => w !== 'and')
    .map((w) => w[0]!.toUpperCase())
    .join('');
