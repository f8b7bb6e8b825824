// Text in XML: escaped for elements and attributes, and stripped of the characters XML 1.0 cannot hold.

// eslint-disable-next-line no-control-regex -- exactly the characters XML 1.0 forbids
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text as XML content or an attribute value. */
export const xmlText = (text: string): string => text.replace(NOT_XML, '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);
