/**
 * HMRC's pooling examples for individuals (Cryptoassets Manual CRYPTO22250, examples CRYPTO22251 to CRYPTO22257)
 * run through `sbm tax cgt --json`, each from a CSV file. The figures asserted are HMRC's, quoted from the page
 * and paragraph named beside each. HMRC writes "20XX"; the tests put the examples in 2024 (and 22253 across
 * the 2024/25 year end, which the example's dates straddle in any year). An opening pool is an acquisition
 * on 1 January 2020, more than 30 days before anything else.
 *
 * HMRC presents whole pounds and rounds intermediate figures (CRYPTO22252 writes £1,000 × 1,500/1,600 as
 * £938, then a gain of £1,400 − £938 = £462). Where HMRC's figure is exact, the test asserts the exact decimal;
 * where HMRC rounded, it asserts both the exact value of HMRC's own formula and that it is HMRC's figure to
 * within the pound (`expectHmrcPounds`).
 *
 * Where the figures were read: the gov.uk manual pages through the search
 * tool's stored copies, which hold each page's first ~2,000 characters. CRYPTO22251, 22252, 22254 and 22255
 * were read whole, and every figure of theirs below is HMRC's printed one. CRYPTO22253, 22256 and 22257 are
 * cut short; no stored copy of their ends was found (gov.uk, its mirrors, vLex, the BittyTax wiki page
 * "HMRC Example Test Cases", whose stored copy also stops after example 1). For those, each comment says
 * which figures are gov.uk text, and which are HMRC's figures as other public projects transcribe them
 * (named as third-party transcriptions, read through the search tool's code index) or as HMRC's own stated
 * matching gives them.
 */
import { describe, expect, it } from 'vitest';
import type { CgtJson } from '../../../../pipeline/tax/uk-rules/cgt/cgt-json.js';
import { cgtReport } from './run-cgt.js';

type Disposal = CgtJson['disposals'][number];

function disposal(report: CgtJson, date: string, asset: string): Disposal {
  const found = report.disposals.find((d) => d.date === date && d.asset === asset);
  if (!found) throw new Error(`no disposal of ${asset} on ${date} in ${JSON.stringify(report.disposals)}`);
  return found;
}

function pool(report: CgtJson, asset: string) {
  return report.pools.find((p) => p.asset === asset);
}

/** HMRC's whole-pound figure: the exact amount is within £1 of it (HMRC rounds a half pound either way). */
function expectHmrcPounds(exact: string, hmrc: number): void {
  expect(Math.abs(Number(exact) - hmrc)).toBeLessThan(1);
}

describe('HMRC Cryptoassets Manual pooling examples through sbm tax cgt', () => {
  it('CRYPTO22251 example 1: a basic section 104 pool disposal', async () => {
    const report = await cgtReport([
      '2020-01-01,A,acquire,100,1000', // "Victoria bought 100 token A for £1,000."
      '2024-09-18,A,acquire,50,125000', // "On 18 September 20XX Victoria bought a further 50 token A for £125,000."
      '2024-12-01,A,dispose,50,300000', // "On 1 December 20XX Victoria sells 50 of her token A for £300,000."
    ]);
    // First table: "single section 104 pool of 150 of token A and total allowable costs of £126,000" (not
    // asserted separately: the next figures use it). Computation: "Less allowable costs £126,000 x (50 / 150)
    // (£42,000) / Gain £258,000".
    expect(disposal(report, '2024-12-01', 'A')).toEqual({
      date: '2024-12-01',
      asset: 'A',
      quantity: '50',
      proceeds: '300000',
      cost: '42000',
      gain: '258000',
      matched: [{ rule: 's104', quantity: '50', cost: '42000' }],
    });
    // Last table: "Closing balance 100 £84,000".
    expect(report.pools).toEqual([{ asset: 'A', quantity: '100', cost: '84000' }]);
  });

  it('CRYPTO22252 example 2: the same day rule', async () => {
    const report = await cgtReport([
      '2020-01-01,B,acquire,5000,500', // "Martyn holds 5,000 token B in a section 104 pool ... £500"
      '2024-06-23T09:00,B,dispose,1000,800', // "Morning – he disposes of 1,000 token B for £800."
      '2024-06-23T14:00,B,acquire,1600,1000', // "Afternoon – he acquires 1,600 token B for £1,000."
      '2024-06-23T20:00,B,dispose,500,600', // "Evening – he disposes of 500 token B for £600."
    ]);
    // "treated as a single disposal of 1,500 token B for £1,400"; "Consideration £800 + £600 £1,400".
    const d = disposal(report, '2024-06-23', 'B');
    expect(report.disposals).toHaveLength(1);
    expect(d.quantity).toBe('1500');
    expect(d.proceeds).toBe('1400');
    // "Less allowable costs £1,000 x (1,500 / 1,600) (£938)": exactly 937.5, HMRC writes £938.
    expect(d.matched).toEqual([{ rule: 'same-day', date: '2024-06-23', quantity: '1500', cost: '937.5' }]);
    expectHmrcPounds(d.cost, 938);
    // "Gain £462" (= £1,400 − £938; exactly 462.5).
    expect(d.gain).toBe('462.5');
    expectHmrcPounds(d.gain, 462);
    // "those 100 token B and their associated cost of £62 (£1,000 x (100 / 1,600)) will go into the section 104
    // pool"; table: "Closing balance 5,100 £562" (exactly 500 + 62.5).
    expect(pool(report, 'B')?.quantity).toBe('5100');
    expect(pool(report, 'B')?.cost).toBe('562.5');
    expectHmrcPounds(pool(report, 'B')?.cost ?? '', 562);
  });

  it('CRYPTO22253 example 3: the 30 day rule, earlier disposals first, across a tax year end', async () => {
    const report = await cgtReport([
      '2020-01-01,C,acquire,2000,1000', // "Rachel holds 2,000 token C in a section 104 pool ... £1,000"
      '2025-03-31,C,dispose,1000,400', // "On 31 March 20XX Rachel disposes of 1,000 token C for £400."
      '2025-04-20,C,dispose,500,150', // "On 20 April 20XX Rachel disposes of 500 token C for £150"
      '2025-04-21,C,acquire,700,175', // "On 21 April 20XX Rachel acquires 700 token C for £175"
      '2025-04-28,C,acquire,500,100', // "On 28 April 20XX Rachel acquires 500 token C for £100"
      '2025-05-01,C,acquire,500,150', // "On 1 May 20XX Rachel acquires 500 token C for £150"
    ]);
    // 31 March: "Less allowable costs – 30 day (21/04 – 700 token C) (£175); 30 day (28/04 – 300 token C)
    // £100 x (300 / 500) (£60); Gain £165". 1 May is day 31 after 31 March: outside the window.
    expect(disposal(report, '2025-03-31', 'C')).toEqual({
      date: '2025-03-31',
      asset: 'C',
      quantity: '1000',
      proceeds: '400',
      cost: '235',
      gain: '165',
      matched: [
        { rule: '30-day', date: '2025-04-21', quantity: '700', cost: '175' },
        { rule: '30-day', date: '2025-04-28', quantity: '300', cost: '60' },
      ],
    });
    // 20 April: "30 day (28/04 – 200 token C) £100 x (200 / 500) (£40); 30 day (01/05 – 300 token C)
    // £150 x (300 / 500) (£90); Gain £20".
    expect(disposal(report, '2025-04-20', 'C')).toEqual({
      date: '2025-04-20',
      asset: 'C',
      quantity: '500',
      proceeds: '150',
      cost: '130',
      gain: '20',
      matched: [
        { rule: '30-day', date: '2025-04-28', quantity: '200', cost: '40' },
        { rule: '30-day', date: '2025-05-01', quantity: '300', cost: '90' },
      ],
    });
    // gov.uk text: "Rachel is unable to match the remaining 200 token C to acquisitions within 30 days of the
    // disposal on 20 April 20XX. Instead those 200 token C and their associated cost o" (the stored copy ends
    // there). The pool that follows is not gov.uk text: it is the page's own matching (the 200 left of 1 May,
    // £150 × 200/500 = £60, join the 2,000 for £1,000), worded as CRYPTO22252 words its unmatched tokens; an
    // independent public UK calculator's test of this example (Python, test_hmrc_example_crypto22253) asserts
    // the same 2,200 token C for £1,060. No rounding is involved.
    expect(report.pools).toEqual([{ asset: 'C', quantity: '2200', cost: '1060' }]);
    // The two disposals fall in two tax years (31 March 2025 in 2024/25, 20 April 2025 in 2025/26).
    expect(report.tax_years.map((y) => [y.tax_year, y.disposals, y.gains])).toEqual([
      ['2024/25', 1, '165'],
      ['2025/26', 1, '20'],
    ]);
  });

  it('CRYPTO22254 example 4: the same day rule with the section 104 pool', async () => {
    const report = await cgtReport([
      '2020-01-01,D,acquire,8000,1000', // "Daniel holds 8,000 token D in a section 104 pool ... £1,000"
      // "On 31 January 20XX Daniel enters into the following transactions:" (in the page's order)
      '2024-01-31T09:00,D,dispose,5000,500', // "Disposal of 5,000 token D for £500."
      '2024-01-31T10:00,D,acquire,4000,320', // "Acquisition of 4,000 token D for £320"
      '2024-01-31T11:00,D,acquire,1000,75', // "Acquisition of 1,000 token D for £75"
      '2024-01-31T12:00,D,acquire,1000,70', // "Acquisition of 1,000 token D for £70"
      '2024-01-31T13:00,D,dispose,2000,142', // "Disposal of 2,000 token D for £142"
      '2024-01-31T14:00,D,acquire,500,35', // "Acquisition of 500 token D for £35"
    ]);
    // "a single disposal of 7.000 token D for £642"; "Consideration £500 + £142 £642".
    const d = disposal(report, '2024-01-31', 'D');
    expect([d.quantity, d.proceeds]).toEqual(['7000', '642']);
    // "same day (6,500 token D) £320 + £75 + £70 + £35 (£500)"; "S104 £1,000 x (500 / 8,000) (£63)": exactly
    // 62.5, HMRC writes £63.
    expect(d.matched).toEqual([
      { rule: 'same-day', date: '2024-01-31', quantity: '6500', cost: '500' },
      { rule: 's104', quantity: '500', cost: '62.5' },
    ]);
    expectHmrcPounds(d.matched[1]?.cost ?? '', 63);
    // "Gain £79" (= £642 − £500 − £63; exactly 79.5).
    expect(d.gain).toBe('79.5');
    expectHmrcPounds(d.gain, 79);
    // "Closing balance 7,500 £937" (exactly 1,000 − 62.5).
    expect(report.pools).toEqual([{ asset: 'D', quantity: '7500', cost: '937.5' }]);
    expectHmrcPounds(report.pools[0]?.cost ?? '', 937);
  });

  it('CRYPTO22255 example 5: the 30 day rule with the section 104 pool', async () => {
    const report = await cgtReport([
      '2020-01-01,E,acquire,14000,200000', // "Melanie holds 14,000 token E ... £200,000"
      '2024-08-30,E,dispose,4000,160000', // "On 30 August 20XX Melanie sells 4,000 token E for £160,000."
      '2024-09-11,E,acquire,500,17500', // "Then on 11 September 20XX Melanie buys 500 token E for £17,500."
    ]);
    // "30 day (11/09 – 500 token E) (£17,500); S104 (3,500 token E) £200,000 x (3,500 / 14,000) (£50,000);
    // Gain £92,500".
    expect(disposal(report, '2024-08-30', 'E')).toEqual({
      date: '2024-08-30',
      asset: 'E',
      quantity: '4000',
      proceeds: '160000',
      cost: '67500',
      gain: '92500',
      matched: [
        { rule: '30-day', date: '2024-09-11', quantity: '500', cost: '17500' },
        { rule: 's104', quantity: '3500', cost: '50000' },
      ],
    });
    // "Closing balance 10,500 £150,000": the 500 bought on 11 September never enter the pool.
    expect(report.pools).toEqual([{ asset: 'E', quantity: '10500', cost: '150000' }]);
  });

  it('CRYPTO22256 example 6: same day, 30 days and the section 104 pool together', async () => {
    const rows22256 = [
      '2020-01-01,F,acquire,100000,300000', // "Gulferaz holds 100,000 token F ... £300,000"
      '2024-07-31T10:00,F,acquire,10000,45000', // "31 July 20XX – acquisition of 10,000 token F for £45,000."
      '2024-07-31T15:00,F,dispose,30000,150000', // "31 July 20XX – disposal of 30,000 token F for £150,000"
      '2024-08-05,F,dispose,20000,100000', // "5 August 20XX – disposal of 20,000 token F for £100,000"
      '2024-08-06,F,acquire,50000,225000', // "6 August 20XX – acquisition of 50,000 token F for £225,000"
      '2024-08-07,F,dispose,100000,150000', // "7 August 20XX – disposal of 100,000 token F for £150,000"
    ];
    const report = await cgtReport(rows22256);
    // 31 July: "same day (10,000 token F) £45,000 (£45,000); 30 day (06/08 - 20,000 token F) £225,000 x
    // (20,000 / 50,000) (£90,000); Gain £15,000"; "No token F go into or come out of the section 104 pool".
    expect(disposal(report, '2024-07-31', 'F')).toEqual({
      date: '2024-07-31',
      asset: 'F',
      quantity: '30000',
      proceeds: '150000',
      cost: '135000',
      gain: '15000',
      matched: [
        { rule: 'same-day', date: '2024-07-31', quantity: '10000', cost: '45000' },
        { rule: '30-day', date: '2024-08-06', quantity: '20000', cost: '90000' },
      ],
    });
    // 5 August, gov.uk text: "Consideration £100,000; Less allowable costs – 30 day (06/08 - 20,000 token F)
    // £225,000 x (20,000 / 50,000)" (the stored copy ends inside this table). The cost is HMRC's formula
    // (£90,000) and the gain £100,000 − £90,000 = £10,000, as the transcriptions below also record.
    expect(disposal(report, '2024-08-05', 'F')).toEqual({
      date: '2024-08-05',
      asset: 'F',
      quantity: '20000',
      proceeds: '100000',
      cost: '90000',
      gain: '10000',
      matched: [{ rule: '30-day', date: '2024-08-06', quantity: '20000', cost: '90000' }],
    });
    // 7 August is past the stored copy. gov.uk text gives its matching: "The remaining 10,000 token F acquired
    // on 6 August 20XX go into the section 104 pool as normal." HMRC's figures, as a third-party transcription
    // records them (a TypeScript cost-basis test of this example, "HMRC CRYPTO22256, Gulferaz"): the pool
    // 110,000 token F for £345,000 before the disposal; allowable cost £345,000 × 100,000/110,000, printed
    // £313,637; a loss of £163,637 (£150,000 − £313,637). A second transcription (a Python catalogue of these
    // examples) records HMRC's net for the three disposals as −£138,637 (£15,000 + £10,000 − £163,637).
    const beforeSeventh = await cgtReport(rows22256.slice(0, -1));
    expect(beforeSeventh.pools).toEqual([{ asset: 'F', quantity: '110000', cost: '345000' }]);
    const seventh = disposal(report, '2024-08-07', 'F');
    expect([seventh.quantity, seventh.proceeds]).toEqual(['100000', '150000']);
    expect(seventh.matched).toHaveLength(1);
    expect(seventh.matched[0]).toMatchObject({ rule: 's104', quantity: '100000' });
    expect(seventh.cost.startsWith('313636.3636')).toBe(true); // exactly £345,000 × 100/110
    expectHmrcPounds(seventh.cost, 313_637);
    expectHmrcPounds(seventh.gain, -163_637);
    // The closing pool is 10,000 token F and what the disposal left of £345,000: exactly £31,363.64
    // (HMRC's printed figures would give £345,000 − £313,637 = £31,363; not read on the page).
    expect(report.pools[0]?.quantity).toBe('10000');
    expectHmrcPounds(report.pools[0]?.cost ?? '', 31_363);
    const year = report.tax_years[0];
    expect([year?.disposals, year?.proceeds, year?.gains]).toEqual([3, '400000', '25000']);
    expectHmrcPounds(year?.losses ?? '', 163_637);
    expectHmrcPounds(String(Number(year?.gains) - Number(year?.losses)), -138_637);
  });

  it('CRYPTO22257 example 7: token-for-token exchanges move two pools at once', async () => {
    // Each exchange is a disposal of what is given up and an acquisition of what is received. The page gives
    // both sides' values; the CSV puts the value of what is received as the disposal's proceeds and the value
    // of what is given up as the acquisition's cost (the consideration each side gave, TCGA 1992 s38 and
    // CRYPTO22100). That reading is the one that gives HMRC's figures below; the other (each token at its own
    // value) would make the G disposal on 31 August a gain of £172, not £280.
    const report = await cgtReport([
      '2020-01-01,G,acquire,100000,300000', // "Elina holds 100,000 token G ... £300,000"
      // "31 August 20XX – acquisition of 10,000 token H (with a value of £3,200) for 1,000 token G (with a value
      // of £3,200)"
      '2024-08-31T09:00,G,dispose,1000,3200',
      '2024-08-31T09:00,H,acquire,10000,3200',
      // "31 August 20XX – disposal of 5,000 token H (with a value of £1,700) for 600 token G (with a value of
      // £1,920)"
      '2024-08-31T10:00,H,dispose,5000,1920',
      '2024-08-31T10:00,G,acquire,600,1700',
      // "31 August 20XX – acquisition of 5,000 token H (with a value of £1,650) for 550 token G (with a value
      // of £1,760)"
      '2024-08-31T11:00,G,dispose,550,1650',
      '2024-08-31T11:00,H,acquire,5000,1760',
      // "4 September 20XX – disposal of 2,000 token H (with a value of £560) for 180 token G (with a value of
      // £558)"
      '2024-09-04,H,dispose,2000,558',
      '2024-09-04,G,acquire,180,560',
      // "16 September 20XX – acquisition of 4,000 token H (with a value of £1,080) for 400 token G (with a
      // value of £1,080)"
      '2024-09-16,G,dispose,400,1080',
      '2024-09-16,H,acquire,4000,1080',
      // "27 October 20XX – disposal of 12,000 token H (with a value of £2,400) for 900 token G (with a value of
      // £2,430)"
      '2024-10-27,H,dispose,12000,2430',
      '2024-10-27,G,acquire,900,2400',
    ]);
    // The matching is gov.uk text (the computations' tables are past the stored copy):
    // "two acquisitions of token H on 31 August 20XX ... treated as a single acquisition of 15,000 token H ...
    // matched as far as possible with the disposal of 5,000 token H on the same date. The remaining token H
    // that were acquired go into a section 104 pool of token H."
    const h31 = disposal(report, '2024-08-31', 'H');
    expect(h31.matched.map((m) => [m.rule, m.date, m.quantity])).toEqual([
      ['same-day', '2024-08-31', '5000'],
    ]);
    // "two disposals of token G on 31 August 20XX ... treated as a single disposal of 1,550 token G ...
    // matched as far as possible with the acquisition of 600 token G on the same date. The disposal is then
    // matched to the acquisition of 180 token G on 4 September 20XX. The remaining part" (the copy ends; the
    // rest can only come from the pool: 27 October is more than 30 days later).
    const g31 = disposal(report, '2024-08-31', 'G');
    expect(g31.quantity).toBe('1550');
    expect(g31.matched).toEqual([
      { rule: 'same-day', date: '2024-08-31', quantity: '600', cost: '1700' },
      { rule: '30-day', date: '2024-09-04', quantity: '180', cost: '560' },
      { rule: 's104', quantity: '770', cost: '2310' }, // £300,000 × 770/100,000
    ]);
    // HMRC's gains and losses, as a third-party transcription records them (a Python catalogue of these
    // examples and its test: "HMRC published: gains 280+267+18=565, losses 120+1417=1537, net −972"), with
    // each disposal's exact figure from the page's values:
    // G 31 August: £3,200 + £1,650 − (£1,700 + £560 + £2,310) = £280.
    expect([g31.proceeds, g31.cost, g31.gain]).toEqual(['4850', '4570', '280']);
    // H 31 August: £1,920 − (£3,200 + £1,760) × 5,000/15,000 = £266.67, HMRC £267.
    expect(h31.proceeds).toBe('1920');
    expectHmrcPounds(h31.gain, 267);
    // H 4 September: 30 days, with 2,000 of the 4,000 H acquired on 16 September: £558 − £540 = £18.
    expect(disposal(report, '2024-09-04', 'H')).toMatchObject({
      proceeds: '558',
      cost: '540',
      gain: '18',
      matched: [{ rule: '30-day', date: '2024-09-16', quantity: '2000', cost: '540' }],
    });
    // G 16 September: no G acquired in the next 30 days; 400 of the pool of 99,230 G (£297,690), £3 each:
    // £1,080 − £1,200 = −£120.
    expect(disposal(report, '2024-09-16', 'G')).toMatchObject({
      proceeds: '1080',
      cost: '1200',
      gain: '-120',
      matched: [{ rule: 's104', quantity: '400', cost: '1200' }],
    });
    // H 27 October: the whole H pool, 10,000 left of 31 August (£3,306.67) and the 2,000 of 16 September
    // that 4 September did not take (£540): £2,430 − £3,846.67 = −£1,416.67, HMRC −£1,417.
    const h27 = disposal(report, '2024-10-27', 'H');
    expect(h27.matched.map((m) => [m.rule, m.quantity])).toEqual([['s104', '12000']]);
    expectHmrcPounds(h27.gain, -1417);
    // HMRC's totals: gains £565, losses £1,537, net −£972 (exactly £564.67, £1,536.67 and −£972).
    const year = report.tax_years[0];
    expect(year?.disposals).toBe(5);
    expectHmrcPounds(year?.gains ?? '', 565);
    expectHmrcPounds(year?.losses ?? '', 1537);
    expect(Number(year?.gains) - Number(year?.losses)).toBeCloseTo(-972, 9);
    // The pools at the end, as the same transcription records them: G 99,730 for £298,890 (the 900 G of
    // 27 October at £2,400 join it), H empty.
    expect(report.pools).toEqual([
      { asset: 'G', quantity: '99730', cost: '298890' },
      { asset: 'H', quantity: '0', cost: '0' },
    ]);
  });
});
