// One way to write a PDF for people (statements): a title, a few lines saying what it is, then
// sections, each a key-value summary and a table whose rows may come batch by batch. Long tables
// continue on new pages with their header repeated; every page is numbered. The document streams
// as it is drawn. pdfkit is loaded on the first PDF asked for, not at start.
import type { Readable } from 'node:stream';

export interface PdfColumn {
  label: string;
  /** Share of the page's width (the shares of a table add up to 1 or less). */
  width: number;
  align?: 'left' | 'right';
}

export interface PdfSection {
  heading?: string;
  summary: Array<[label: string, value: string]>;
  table?: { columns: PdfColumn[]; rows: AsyncIterable<string[][]> | Iterable<string[][]>; empty: string };
}

export interface PdfSpec {
  title: string;
  /** Lines under the title: who it is for, when it was made. */
  lines: string[];
  sections: PdfSection[];
  /** "Page {page}" in the document's language. */
  pageLabel: (page: number) => string;
}

type Doc = PDFKit.PDFDocument;

const MARGIN = 48;
const ROW = 15;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';

/** Text the standard fonts can draw (Latin-1 and a few signs); anything else shows as "?". */
const drawable = (text: string): string => text.replace(/[^\x20-\x7E\xA0-\xFF\u2013\u2014\u2019\u2022\u20AC\u2212]/g, '?');

/** The PDF, streamed as it is drawn; a failure while drawing ends the stream with the error. */
export async function pdfStream(spec: PdfSpec): Promise<Readable> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, info: { Title: drawable(spec.title) } });
  void draw(doc, spec).then(
    () => doc.end(),
    (error: unknown) => doc.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return doc;
}

async function draw(doc: Doc, spec: PdfSpec): Promise<void> {
  let page = 1;
  const numberPage = () => {
    // Written inside the bottom margin: lift the margin while writing, so no new page starts.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font(FONT).fontSize(8).fillColor('#6b7280').text(drawable(`${spec.title} · ${spec.pageLabel(page)}`), MARGIN, doc.page.height - MARGIN / 2 - 4, { width: doc.page.width - 2 * MARGIN, align: 'center', lineBreak: false });
    doc.page.margins.bottom = bottom;
    doc.fillColor('#111827').x = MARGIN;
    doc.y = MARGIN;
  };
  doc.on('pageAdded', () => {
    page++;
    numberPage();
  });
  numberPage();
  doc.font(BOLD).fontSize(16).text(drawable(spec.title));
  doc.moveDown(0.3).font(FONT).fontSize(9).fillColor('#4b5563');
  for (const line of spec.lines) doc.text(drawable(line));
  doc.fillColor('#111827');
  for (const section of spec.sections) {
    doc.moveDown(1);
    if (section.heading) {
      ensureRoom(doc, ROW * 3);
      doc.font(BOLD).fontSize(12).text(drawable(section.heading), MARGIN);
      doc.moveDown(0.3);
    }
    drawSummary(doc, section.summary);
    if (section.table) await drawTable(doc, section.table);
  }
}

/** Starts a new page unless `height` still fits on this one. */
function ensureRoom(doc: Doc, height: number): void {
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
}

function drawSummary(doc: Doc, summary: PdfSection['summary']): void {
  const width = doc.page.width - 2 * MARGIN;
  for (const [label, value] of summary) {
    ensureRoom(doc, ROW);
    const y = doc.y;
    doc.font(FONT).fontSize(10).text(drawable(label), MARGIN, y, { width: width * 0.6, lineBreak: false, ellipsis: true });
    doc.font(BOLD).text(drawable(value), MARGIN + width * 0.6, y, { width: width * 0.4, align: 'right', lineBreak: false });
    doc.y = y + ROW;
  }
}

async function drawTable(doc: Doc, table: NonNullable<PdfSection['table']>): Promise<void> {
  const width = doc.page.width - 2 * MARGIN;
  const row = (cells: string[], font: string) => {
    const y = doc.y;
    let x = MARGIN;
    doc.font(font).fontSize(8);
    table.columns.forEach((column, i) => {
      const w = column.width * width;
      doc.text(drawable(cells[i] ?? ''), x + 2, y + 3, { width: w - 4, align: column.align ?? 'left', lineBreak: false, ellipsis: true });
      x += w;
    });
    doc.x = MARGIN;
    doc.y = y + ROW;
  };
  const header = () => {
    doc.rect(MARGIN, doc.y, width, ROW).fill('#e5e7eb').fillColor('#111827');
    row(table.columns.map((c) => c.label), BOLD);
  };
  doc.moveDown(0.8);
  ensureRoom(doc, ROW * 2);
  header();
  let any = false;
  for await (const batch of table.rows) {
    for (const cells of batch) {
      any = true;
      if (doc.y + ROW > doc.page.height - doc.page.margins.bottom) {
        doc.addPage();
        header();
      }
      row(cells, FONT);
    }
  }
  if (!any) doc.font(FONT).fontSize(9).text(drawable(table.empty), MARGIN + 2, doc.y + 3, { width: width - 4 });
}
