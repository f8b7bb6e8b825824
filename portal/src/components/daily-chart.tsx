import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** A line of one figure per day (x: epoch seconds), as wide as its container. */
export function DailyChart({ days, values, label }: { days: number[]; values: number[]; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const plot = new uPlot(
      {
        width: element.clientWidth || 600,
        height: 220,
        legend: { show: false },
        cursor: { show: true },
        scales: { x: { time: true } },
        series: [{}, { label, stroke: '#2563eb', width: 2, fill: 'rgba(37, 99, 235, 0.12)' }],
        axes: [{}, { size: 50 }],
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
  }, [days, values, label]);
  // uPlot is sized to the inner box, which has no padding, so the chart never outgrows the frame.
  return (
    <div class="chart" role="img" aria-label={label}>
      <div ref={box} />
    </div>
  );
}
