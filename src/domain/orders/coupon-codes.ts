// The shape of a coupon code an affiliate is given, and the key codes are compared by (codes are
// unique per brand without case).

/** 3 to 40 letters (A–Z, any case), digits, hyphens and underscores. */
const CODE = /^[A-Za-z0-9_-]{3,40}$/;

export const COUPON_CODE_RULE = '3 to 40 characters: letters A-Z (any case), digits, hyphens (-) and underscores (_); no spaces';

/** Whether `code` can be given to an affiliate. */
export const isCouponCode = (code: string): boolean => CODE.test(code);

/** The key a code is stored and looked up by: the same code in any case is the same code. */
export const couponKeyOf = (code: string): string => code.trim().toLowerCase();
