import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { Cloopen } from '../../nodes/Cloopen/Cloopen.node';
import { operationsOffered } from '../../dev/examples';
import { cannedPlatform } from './version1/cannedPlatform';
import { recordRun, version1Runs, type Version1Record } from './version1/version1Runs';

/**
 * Saved workflows keep working: version-1 workflows (every example as it was saved before version
 * 2, and one workflow per operation and setting) run through n8n's engine with the clock stopped
 * and a platform that always answers the same, and must send the same bytes and give the same
 * output as recorded with version 1 alone (version1/recorded.json). Only the platform's port and the
 * engine's execution numbers are left out of the comparison.
 *
 * The record was made once, from the code before version 2 existed, with
 * `RECORD_VERSION1=1 npx jest test/engine/version1.engine.test.ts`; it is not to be made again.
 */
const RECORDED = join(__dirname, 'version1', 'recorded.json');
const recording = process.env.RECORD_VERSION1 === '1';
/** The stopped clock: the signature's timestamp, $now and every date the runs compute. */
const NOW = new Date('2026-11-22T02:30:00.000Z');

const platform = cannedPlatform();
const runs = version1Runs();
const made: Record<string, Version1Record> = {};

beforeAll(async () => {
	await platform.start();
	jest.useFakeTimers({
		now: NOW,
		doNotFake: [
			'hrtime',
			'nextTick',
			'performance',
			'queueMicrotask',
			'setImmediate',
			'clearImmediate',
			'setInterval',
			'clearInterval',
			'setTimeout',
			'clearTimeout',
		],
	});
	// examples/voice-otp.json draws its code with Math.random.
	jest.spyOn(Math, 'random').mockReturnValue(0.5);
});

afterAll(async () => {
	jest.useRealTimers();
	jest.restoreAllMocks();
	await platform.stop();
	if (recording) writeFileSync(RECORDED, `${JSON.stringify(made, null, '\t')}\n`);
});

const recorded: Record<string, Version1Record> =
	!recording && existsSync(RECORDED) ? JSON.parse(readFileSync(RECORDED, 'utf8')) : {};

/** The operations version 1 offered, each of which the record must show. */
const VERSION_1_OPERATIONS = [
	'account:getInfo',
	'billRecords:getDownloadInfo',
	'call:getResult',
	'call:getState',
	'sms:sendTemplate',
	'subAccount:close',
	'subAccount:create',
	'subAccount:getAll',
	'subAccount:getByName',
	'voiceNotification:call',
	'voiceVerification:sendCode',
	'voiceVerification:sendCustomAudioCode',
];

it('the record covers every example file and every operation version 1 offered', () => {
	if (recording) return;
	expect(Object.keys(recorded).sort()).toEqual(runs.map((run) => run.name).sort());
	const operations = new Set(
		runs.flatMap((run) =>
			run.workflow.nodes
				.filter((node) => node.type.startsWith('n8n-nodes-cloopen.cloopen'))
				.map(
					(node) => `${String(node.parameters?.resource)}:${String(node.parameters?.operation)}`,
				),
		),
	);
	expect(VERSION_1_OPERATIONS.filter((operation) => !operations.has(operation))).toEqual([]);
	expect(operationsOffered(new Cloopen().description)).toEqual(
		expect.arrayContaining(VERSION_1_OPERATIONS),
	);
});

it.each(runs.map((run) => [run.name, run] as const))(
	'%s: the same requests on the wire and the same output as version 1 gave',
	async (name, run) => {
		const record = await recordRun(run, platform);
		if (recording) {
			made[name] = record;
			return;
		}
		expect(record).toEqual(recorded[name]);
	},
);
