// On a narrow screen a table's rows stack as cards (styles.css), each value beside its column's
// name. The names come from the table's own header: every cell gets its header's text as
// `data-label`, again whenever the page changes (rows load, the language switches), so a new
// table or column needs nothing of its own to read well on a phone.
import { useEffect, type MutableRef } from 'preact/hooks';

export function useCellLabels(root: MutableRef<HTMLElement | null>): void {
  useEffect(() => {
    const element = root.current;
    if (!element) return;
    const label = () => element.querySelectorAll('table').forEach(labelCells);
    label();
    // Attributes are not watched, so writing the labels does not call this again.
    const observer = new MutationObserver(label);
    observer.observe(element, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, [root]);
}

function labelCells(table: HTMLTableElement): void {
  const header = table.tHead?.rows[0];
  if (!header) return;
  const labels: string[] = [];
  for (const cell of Array.from(header.cells)) for (let i = 0; i < cell.colSpan; i++) labels.push(visibleText(cell));
  for (const row of Array.from(table.rows)) {
    if (row.parentElement === table.tHead) continue;
    let column = 0;
    for (const cell of Array.from(row.cells)) {
      const label = labels[column] ?? '';
      if (cell.dataset.label !== label) cell.dataset.label = label;
      column += cell.colSpan;
    }
  }
}

/** A header's text as seen on the screen: a column named for screen readers only (actions) shows no label. */
function visibleText(cell: HTMLTableCellElement): string {
  const hidden = Array.from(cell.querySelectorAll('.visually-hidden'), (e) => e.textContent ?? '').join('');
  const text = (cell.textContent ?? '').trim();
  return hidden.trim() === text ? '' : text;
}
