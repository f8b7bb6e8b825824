// A test order: the brand proves its install without a real sale. "Send a test order" makes a
// test whose id has a click id's shape, and a test link to the brand's home page carrying it (and
// `affnet_test=1`). The tag keeps it as it keeps any click id and, seeing the mark, announces the
// visit; an order the visitor then places reports that click id, is checked as any report is
// (origin, currency, suspension) and kept as the test's report, with what the tag read, never as
// an order: nothing that lists, counts, bills or pays orders can meet it. Tests are kept as long as
// the tag's reports (TAG_REPORT_DAYS).
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../lib/clock.js';
import type { BrandsRepository } from '../../storage/repositories/brands.js';
import type { TagInstallRepository } from '../../storage/repositories/tag-install.js';
import { notFound, tooMany } from '../errors.js';
import { brandDomains, brandHome, onDomains } from '../links/link-rules.js';
import { hostOf } from '../urls.js';
import { reportOf, type TagReportView } from './tag-reports.js';

/** The query parameter that tells the tag a landing is a test's: it then announces the visit. */
export const TEST_MARK = 'affnet_test';
/** Reports a test shows. */
const SHOWN = 20;
/** Tests a brand may start in an hour: enough to try again and again, not to fill the table. */
export const TESTS_PER_HOUR = 30;
const HOUR_MS = 3_600_000;

/** The tag announced the test link's landing: when, from which page, and whether that page is on the brand's domains (its orders are refused otherwise). */
export interface TestVisit {
  at: string;
  origin?: string;
  onDomains: boolean;
}

export interface TagTest {
  id: string;
  /** The brand's home page through the test: open it, then order as a customer would. */
  url: string;
  createdAt: string;
  visit?: TestVisit;
  /** What the shop's pages reported with the test's click id: never orders. */
  orders: TagReportView[];
  /** Reports refused since the test began that carried no test's click id: an order placed without the test link, say. */
  otherRefusals: TagReportView[];
}

export class TagTestsService {
  constructor(
    private readonly repositories: { tagInstall: TagInstallRepository; brands: BrandsRepository },
    private readonly clock: Clock,
  ) {}

  /** Makes a test and its link to the brand's home page. */
  async start(brandId: string): Promise<TagTest> {
    const brand = await this.repositories.brands.find(brandId);
    if (!brand) throw notFound(`no brand ${brandId}`, 'brand_not_found');
    const hourAgo = new Date(this.clock.now() - HOUR_MS).toISOString();
    if ((await this.repositories.tagInstall.testsSince(brandId, hourAgo)) >= TESTS_PER_HOUR) {
      throw tooMany('too_many_tag_tests', HOUR_MS, ({ minutes }) => `at most ${TESTS_PER_HOUR} test orders an hour: try again within ${minutes} minutes`);
    }
    const row = { id: randomBytes(16).toString('hex'), brand_id: brandId, created_at: this.clock.iso(), visited_at: null, visit_origin: null };
    await this.repositories.tagInstall.addTest(row);
    return this.get(brandId, row.id);
  }

  /** One of the brand's tests (another brand's, or one forgotten, answers 404). */
  async get(brandId: string, id: string): Promise<TagTest> {
    const { tagInstall, brands } = this.repositories;
    const [test, brand] = await Promise.all([tagInstall.testOf(brandId, id), brands.find(brandId)]);
    if (!test || !brand) throw notFound(`test "${id}" not found among yours`, 'tag_test_not_found');
    const [orders, others] = await Promise.all([tagInstall.reportsOfTest(id, SHOWN), tagInstall.refusedSince(brandId, test.created_at, SHOWN)]);
    const url = new URL(brandHome(brand));
    url.searchParams.set(brand.click_id_param, id);
    url.searchParams.set(TEST_MARK, '1');
    return {
      id,
      url: url.toString(),
      createdAt: test.created_at,
      ...(test.visited_at !== null && { visit: this.visitOf(test.visited_at, test.visit_origin, brandDomains(brand)) }),
      orders: orders.map(reportOf),
      otherRefusals: others.map(reportOf),
    };
  }

  private visitOf(at: string, origin: string | null, domains: string[]): TestVisit {
    if (origin === null) return { at, onDomains: true };
    const host = hostOf(origin);
    return { at, origin, onDomains: host !== undefined && onDomains(host, domains) };
  }
}
