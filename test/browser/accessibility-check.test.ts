// The accessibility check every page test relies on can fail (positive control): a page with a
// button without a name, an image without a text and text too faint to read is refused, naming each.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { assertAccessible, launchBrowser } from '../helpers/browser.js';

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser.close();
});

test('the accessibility check refuses a page with serious violations and passes a clean one', async () => {
  const page = await browser.newPage();
  await page.setContent('<html lang="en"><head><title>Bad</title></head><body><main><h1>Bad</h1><button></button><img src="data:,"><p style="color:#ccc;background:#fff">faint</p></main></body></html>');
  await assert.rejects(assertAccessible(page, 'the bad page'), (error: Error) => {
    for (const rule of ['button-name', 'image-alt', 'color-contrast']) assert.match(error.message, new RegExp(rule));
    return true;
  });
  await page.setContent('<html lang="en"><head><title>Good</title></head><body><main><h1>Good</h1><button>Save</button><img src="data:," alt="A logo"><p>readable</p></main></body></html>');
  await assertAccessible(page, 'the clean page');
  await page.close();
});
