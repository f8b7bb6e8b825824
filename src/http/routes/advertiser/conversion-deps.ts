import type { ConversionDeps } from '../../../domain/orders/conversions.js';
import type { AppContext } from '../../context.js';

/**
 * What conversion reports need from the running service. With several instances (Redis set), a
 * click may still sit in another instance's buffer, so an unknown click id gets one more look
 * after a flush interval; alone, this instance's buffer is all there is.
 */
export function conversionDeps(ctx: AppContext): ConversionDeps {
  return {
    database: ctx.database,
    bufferedClick: (id) => ctx.clicks.buffered(id),
    clickWriteDelayMs: ctx.redis ? ctx.config.clickFlushMs + 250 : 0,
  };
}
