// What a list asks for and what a service answers: a page number and size in, the page's items
// and the total across pages out. The envelope around them (data/meta/pagination/count) is the
// HTTP layer's business.

/** Page `page` (from 1) of `limit` items. */
export interface PageRequest {
  page: number;
  limit: number;
}

export interface Paged<T> {
  items: T[];
  /** Items matching the filters, across all pages. */
  total: number;
}

/** The rows a page covers, as repositories take them. */
export const offsetOf = (page: PageRequest): { limit: number; offset: number } => ({ limit: page.limit, offset: (page.page - 1) * page.limit });
