// The rows Kysely gets from SQLite are built from each statement's columns rather than by
// better-sqlite3: they must be the very rows better-sqlite3 would build (names, order, values of
// every type, duplicate names, columns named like Object's own properties), and writes and
// iteration must behave as before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import SqliteDriver from 'better-sqlite3';
import { preparedStatements } from '../../src/storage/sqlite-statements.js';

function opened() {
  const driver = new SqliteDriver(':memory:');
  driver.exec(`create table t (id integer primary key, name text, price integer, ratio real, data blob, note text)`);
  driver.exec(`insert into t values (1, 'Ünïcode "quoted"', 1999, 0.25, x'00ff', null), (2, 'two', 9007199254740991, -1.5, null, 'n')`);
  return { driver, statements: preparedStatements(driver) };
}

test('rows are the objects better-sqlite3 builds: same keys in the same order, same values of every type', () => {
  const { driver, statements } = opened();
  for (const sql of [
    'select * from t order by id',
    'select id, name as "a name", price + 1 as "x-y", data, note from t order by id desc',
    'select 1 as constructor, 2 as toString, 3 as "hasOwnProperty", ? as param',
  ]) {
    const parameters = sql.includes('?') ? ['p'] : [];
    const expected = driver.prepare(sql).all(...parameters);
    const rows = statements.prepare(sql).all(parameters);
    assert.deepStrictEqual(rows, expected, sql);
    assert.deepEqual(rows.map((r) => Object.keys(r as object)), expected.map((r) => Object.keys(r as object)), `${sql}: key order`);
  }
});

test('a duplicate column name keeps the last value, as better-sqlite3 does', () => {
  const { driver, statements } = opened();
  const sql = 'select id, name as id from t where id = 1';
  assert.deepStrictEqual(statements.prepare(sql).all([]), driver.prepare(sql).all());
  assert.deepStrictEqual(statements.prepare(sql).all([]), [{ id: 'Ünïcode "quoted"' }]);
});

test('a column named __proto__ never sets the prototype: the row is what better-sqlite3 builds', () => {
  const { driver, statements } = opened();
  const sql = 'select 1 as __proto__, 2 as b';
  const [row] = statements.prepare(sql).all([]) as Array<Record<string, unknown>>;
  assert.equal(Object.getPrototypeOf(row), Object.prototype);
  assert.deepStrictEqual([row], driver.prepare(sql).all());
});

test('iteration yields the same rows; writes report their changes; statements are reused by text', () => {
  const { statements } = opened();
  const select = 'select id, name from t order by id';
  assert.deepStrictEqual([...statements.prepare(select).iterate([])], statements.prepare(select).all([]));
  assert.equal(statements.prepare(select), statements.prepare(select));
  const insert = statements.prepare('insert into t (id, name) values (?, ?)');
  assert.equal(insert.reader, false);
  assert.deepEqual(insert.run([3, 'three']), { changes: 1, lastInsertRowid: 3 });
  assert.deepStrictEqual(statements.prepare('select name from t where id = ?').all([3]), [{ name: 'three' }]);
});
