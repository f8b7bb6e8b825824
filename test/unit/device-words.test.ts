// A device as the service names it, said in each language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeDevice } from '../../src/domain/access/users-service.js';
import { deviceInWords, deviceParts } from '../../src/lib/device-words.js';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

test('a phone is named by browser, system and kind, in English and in Portuguese', () => {
  const device = describeDevice(IPHONE);
  assert.deepEqual(deviceParts(device), { browser: 'Safari', os: 'iOS', kind: 'mobile' });
  assert.equal(deviceInWords(device, 'en'), 'Safari on iOS (phone)');
  assert.equal(deviceInWords(device, 'pt-BR'), 'Safari no iOS (celular)');
});

test('a device nothing is known of is said to be unknown, in each language', () => {
  assert.equal(deviceParts(describeDevice(undefined)), undefined);
  assert.equal(deviceInWords(describeDevice(undefined), 'pt-BR'), 'dispositivo desconhecido');
  assert.equal(deviceInWords(undefined, 'en'), 'unknown device');
});
