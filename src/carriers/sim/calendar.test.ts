import { test } from 'node:test';
import assert from 'node:assert/strict';
import { usFederalHoliday, usFederalHolidays } from './calendar.ts';

test('the federal holidays of 2022 as OPM published them, Saturday and Sunday ones moved', () => {
  assert.deepEqual(
    [...usFederalHolidays(2022).keys()],
    ['2022-01-17', '2022-02-21', '2022-05-30', '2022-06-20', '2022-07-04', '2022-09-05', '2022-10-10', '2022-11-11', '2022-11-24', '2022-12-26'],
  );
});

test("a Saturday New Year's Day is observed on the Friday before, in the year before", () => {
  assert.equal(usFederalHoliday('2021-12-31'), "New Year's Day");
  assert.equal(usFederalHoliday('2022-01-01'), undefined);
});

test('Juneteenth counts from 2021; a Saturday Independence Day is observed on the Friday', () => {
  assert.equal(usFederalHoliday('2021-06-18'), 'Juneteenth National Independence Day');
  assert.equal(usFederalHoliday('2019-06-19'), undefined);
  assert.equal(usFederalHoliday('2026-07-03'), 'Independence Day');
  assert.equal(usFederalHoliday('2030-11-28'), 'Thanksgiving Day');
  assert.equal(usFederalHoliday('2030-05-27'), 'Memorial Day');
});
