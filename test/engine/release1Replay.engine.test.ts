import crypto from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { OPERATIONS } from '../../nodes/Cloopen/resources';
import { fakeDateOnly } from '../support/fakeDateOnly';
import { cannedPlatform } from './replay/cannedPlatform';
import { recordRun, release1Runs, type Release1Record } from './replay/release1Runs';

/**
 * The first release's net for the first version bump: its workflows (every example as it ships, one
 * workflow per operation and setting, and every number field given mainland, foreign, premium-rate
 * and international-network numbers, alone and in mixed lists) run through n8n's engine with the
 * clock stopped, the node's random draws fixed and a platform that always answers the same, and
 * must send the same bytes and give the same output as recorded at version 1
 * (replay/release1Recorded.json). Only the platform's port and the engine's execution numbers are
 * left out of the comparison.
 *
 * The record shows what release 1 does, sent or refused. A change that means to change it makes it
 * again with `RECORD_RELEASE1=1 npx jest test/engine/release1Replay.engine.test.ts` and shows the
 * difference in review; a version bump leaves it as it is and keeps it passing.
 */
const RECORDED = join(__dirname, 'replay', 'release1Recorded.json');
const recording = process.env.RECORD_RELEASE1 === '1';
/** The stopped clock: the signature's timestamp, $now and every date the runs compute. */
const NOW = new Date('2026-11-22T02:30:00.000Z');

const platform = cannedPlatform();
const runs = release1Runs();
const made: Record<string, Release1Record> = {};

beforeAll(async () => {
	await platform.start();
	fakeDateOnly(NOW);
	// examples/voice-otp.json draws its code with Math.random; One-Time Code → Send draws its code
	// (each character the fifth of its alphabet: 444444) and its verification id from node:crypto.
	jest.spyOn(Math, 'random').mockReturnValue(0.5);
	jest.spyOn(crypto, 'randomInt').mockImplementation((() => 4) as never);
	jest
		.spyOn(crypto, 'randomBytes')
		.mockImplementation(((size: number) => Buffer.alloc(size, 7)) as never);
});

afterAll(async () => {
	jest.useRealTimers();
	jest.restoreAllMocks();
	await platform.stop();
	if (recording) writeFileSync(RECORDED, `${JSON.stringify(made, null, '\t')}\n`);
});

const recorded: Record<string, Release1Record> =
	!recording && existsSync(RECORDED) ? JSON.parse(readFileSync(RECORDED, 'utf8')) : {};

it('the record holds every run, and the runs cover every operation of the registry', () => {
	if (recording) return;
	expect(Object.keys(recorded).sort()).toEqual(runs.map((run) => run.name).sort());
	const covered = new Set(
		runs.flatMap((run) =>
			run.workflow.nodes
				.filter((node) => node.type.startsWith('n8n-nodes-cloopen.cloopen'))
				.map(
					(node) => `${String(node.parameters?.resource)}:${String(node.parameters?.operation)}`,
				),
		),
	);
	const offered = OPERATIONS.map(
		({ resource, operation }) => `${resource.value}:${operation.value}`,
	);
	expect(offered.filter((operation) => !covered.has(operation))).toEqual([]);
});

it.each(runs.map((run) => [run.name, run] as const))(
	'%s: the same requests on the wire and the same output as release 1 gave',
	async (name, run) => {
		const record = await recordRun(run, platform);
		if (recording) {
			made[name] = record;
			return;
		}
		expect(record).toEqual(recorded[name]);
	},
);
