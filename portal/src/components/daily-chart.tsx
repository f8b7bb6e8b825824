import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useMessages } from '../i18n/index.js';

// Counts step by whole numbers: never a tick at 0,25 clicks.
const WHOLE_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000, 10_000_000];

/** A line of one count per day (x: epoch seconds of UTC days), as wide as its container; days and counts written in the page's language. */
export function DailyChart({ days, values, label }: { days: number[]; values: number[]; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  const { locale } = useMessages();
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const dayOf = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' });
    const count = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
    const plot = new uPlot(
      {
        width: element.clientWidth || 600,
        height: 220,
        legend: { show: false },
        cursor: { show: true },
        scales: { x: { time: true } },
        // The days are UTC days: ticks fall on their midnights, wherever the browser is.
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
        series: [{}, { label, stroke: '#2563eb', width: 2, fill: 'rgba(37, 99, 235, 0.12)' }],
        axes: [
          { values: (_plot, ticks) => ticks.map((tick) => dayOf.format(new Date(tick * 1000))) },
          { size: 50, incrs: WHOLE_STEPS, values: (_plot, ticks) => ticks.map((tick) => count.format(tick)) },
        ],
      },
      [days, values],
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: element.clientWidth, height: 220 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days, values, label, locale]);
  // uPlot is sized to the inner box, which has no padding, so the chart never outgrows the frame.
  return (
    <div class="chart" role="img" aria-label={label}>
      <div ref={box} />
    </div>
  );
}
