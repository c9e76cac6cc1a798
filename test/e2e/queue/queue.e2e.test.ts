/**
 * The package in n8n queue mode, as users who outgrow one n8n run it: PostgreSQL and Redis (Debian's
 * packages, started on 127.0.0.1 by services.ts), a main process, two workers and one webhook process,
 * each with the packed package installed in its own user folder, manual executions offloaded to the
 * workers (queueSetup.ts; what users run by hand there: manualRuns.queue.e2e.test.ts). The failure
 * alert closes through the webhook process; bursts of call result notifications become exactly that
 * many alert executions and SMS; a worker stopped in the middle of a burst is measured and reported.
 * Then what a notification meets when n8n cannot take it: PostgreSQL stopping while n8n stores the
 * execution, a worker killed with SIGKILL mid-burst, and Redis failing before n8n queues the
 * execution (last: n8n's processes exit).
 */
import { randomUUID } from 'node:crypto';

import { ACKNOWLEDGEMENT, notificationBody } from '../../../emulator';
import { EXAMPLE_HEADER_AUTH, loadExample } from '../../../dev/examples';
import { countByStatus, endedOf, type StatusCounts } from '../../../dev/n8n/executionReadBack';
import { nodeOutput } from '../../../dev/n8n/executions';
import {
	burstCallSid,
	burstNumber,
	postNotificationBurst,
} from '../../../dev/n8n/queue/notificationBurst';
import type { QueueProcess } from '../../../dev/n8n/queue/queueProcess';
import { startQueueSetup, totalOf, type QueueSetup } from '../../../dev/n8n/queue/queueSetup';
import { triggerToNoOp } from '../../../dev/n8n/triggerToNoOp';

const BURST = Number(process.env.QUEUE_E2E_BURST ?? 500);
const ALERT_NUMBER = '13700000000';

let setup: QueueSetup;
let alert: { workflowId: string; url: string };

beforeAll(async () => {
	setup = await startQueueSetup(2);
});

afterAll(async () => {
	await setup?.stop();
});

/** Execution ids each worker's log says it ran. */
const ranBy = (worker: QueueProcess) =>
	new Set([...worker.log().matchAll(/Worker started execution (\d+)/g)].map((match) => match[1]));

/** The alert SMS the emulator received for one burst, by the failed number each one names. */
function alertSmsOf(burst: number): Map<string, number> {
	const prefix = burstNumber(burst, 0).slice(0, 5);
	const perNumber = new Map<string, number>();
	for (const sms of setup.emulator.messages()) {
		if (!sms.to.includes(ALERT_NUMBER) || !sms.datas[0]?.startsWith(prefix)) continue;
		perNumber.set(sms.datas[0], (perNumber.get(sms.datas[0]) ?? 0) + 1);
	}
	return perNumber;
}

test('the failure alert closes through the webhook process: acknowledged, run on a worker, SMS sent', async () => {
	const { main, emulator, credentialId, workers } = setup;
	alert = await setup.publishAlertWorkflow();
	const alertUrl = alert.url;

	const otp = loadExample('voice-otp.json', emulator.appId);
	const send = otp.nodes.find((node) => node.name === 'Send Voice Code');
	if (!send) throw new Error('voice-otp.json has no "Send Voice Code" node');
	send.parameters.to = '13800000002'; // the emulator fails calls to numbers ending in 2
	send.parameters.additionalFields = {
		...(send.parameters.additionalFields as object),
		respUrl: alertUrl,
	};
	const otpId = await main.importWorkflow(otp, { credentials: { cloopenApi: credentialId } });
	const callbacksBefore = emulator.callbacks().length;
	await main.runWorkflowManually(otpId, 'Start');
	await main.waitForExecution({ workflowId: otpId, status: 'success' }, 120_000);

	const [callback] = (await emulator.waitForCallbacks(callbacksBefore + 1, 30_000)).slice(
		callbacksBefore,
	);
	expect(callback).toMatchObject({ url: alertUrl, acknowledged: true, httpStatus: 200 });
	const alertRun = await main.waitForExecution(
		{ workflowId: alert.workflowId, status: 'success' },
		60_000,
	);
	expect(workers.some((worker) => ranBy(worker).has(alertRun.id))).toBe(true);
	expect(emulator.messages().find((sms) => sms.to.includes(ALERT_NUMBER))?.datas).toEqual([
		'13800000002',
		'呼叫失败',
	]);
});

test('Wait for Call Result: the notification reaches the resume URL on the webhook process and a worker continues; the webhook caller is answered empty when the execution starts waiting', async () => {
	const { main, emulator, credentialId, workers } = setup;
	emulator.setCallDuration(3_000); // the execution must be stored as waiting before the call ends
	try {
		const workflow = loadExample('voice-code-wait-for-result.json', emulator.appId);
		const trigger = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.webhook');
		if (!trigger) throw new Error('voice-code-wait-for-result.json has no webhook');
		trigger.parameters.path = 'queue-voice-code';
		trigger.webhookId = undefined;
		const headerAuthId = await main.createCredential(
			EXAMPLE_HEADER_AUTH.type,
			'Header Auth account',
			EXAMPLE_HEADER_AUTH.data,
		);
		const workflowId = await main.importWorkflow(workflow, {
			credentials: { cloopenApi: credentialId, [EXAMPLE_HEADER_AUTH.type]: headerAuthId },
		});
		await main.activateWorkflow(workflowId);

		const response = await fetch(`${setup.webhook.baseUrl}/webhook/queue-voice-code`, {
			method: 'POST',
			headers: {
				'Content-Type': 'application/json',
				[EXAMPLE_HEADER_AUTH.data.name]: EXAMPLE_HEADER_AUTH.data.value,
			},
			body: JSON.stringify({ to: '13800000000', code: '482913' }),
		});
		// n8n's queue mode answers a held "Respond to Webhook" request when the worker's job ends, and a
		// job ends when its execution starts waiting: the caller gets an empty 200 (README, Queue mode).
		expect({ status: response.status, text: await response.text() }).toEqual({
			status: 200,
			text: '',
		});

		const execution = await main.waitForExecution({ workflowId, status: 'success' }, 60_000);
		const [result] = nodeOutput(execution, 'Call and Wait for Result');
		expect(result).toMatchObject({ notified: true, result: 'answered', to: '13800000000' });
		const callback = emulator.callbacks().find((entry) => entry.callSid === result.callSid);
		expect(callback).toMatchObject({ acknowledged: true, httpStatus: 200 });
		expect(
			callback?.url.startsWith(`${setup.webhook.baseUrl}/webhook-waiting/${execution.id}`),
		).toBe(true);
		expect(workers.some((worker) => ranBy(worker).has(execution.id))).toBe(true);
	} finally {
		emulator.setCallDuration(300);
	}
});

// Each burst test may take minutes on a loaded 2-core machine: its own timeout, beyond the wait for executions.
const BURST_TIMEOUT_MS = 900_000;

test(
	`a burst of ${BURST} notifications through the webhook process: ${BURST} alert executions and ${BURST} SMS, none lost, none doubled, both workers busy`,
	async () => {
		const { workers } = setup;
		const before = await setup.finalCounts(alert.workflowId);
		const ranBefore = workers.map((worker) => ranBy(worker).size);
		const burst = await postNotificationBurst({
			url: alert.url,
			burst: 1,
			count: BURST,
			parallel: 20,
			acknowledgement: ACKNOWLEDGEMENT,
		});
		expect(burst.refused).toEqual([]);
		expect(burst.acknowledged).toBe(BURST);

		const after = await setup.waitForEnded(alert.workflowId, totalOf(before) + BURST, 600_000);
		expect({
			success: after.success - before.success,
			error: after.error - before.error,
			crashed: after.crashed - before.crashed,
		}).toEqual({
			success: BURST,
			error: 0,
			crashed: 0,
		});
		const sms = alertSmsOf(1);
		expect(sms.size).toBe(BURST);
		expect([...sms.values()].filter((count) => count !== 1)).toEqual([]);
		const perWorker = workers.map((worker, index) => ranBy(worker).size - ranBefore[index]);
		expect(perWorker.every((ran) => ran > 0)).toBe(true);
		console.log(
			`[queue] burst of ${BURST}: acknowledged in ${burst.durationMs} ms; executions per worker ${perWorker.join(' / ')}`,
		);
	},
	BURST_TIMEOUT_MS,
);

test(
	`a burst of ${BURST} with one worker stopped (SIGTERM) halfway: every notification is acknowledged and handed to n8n; what n8n does with it is measured`,
	async () => {
		const before = await setup.finalCounts(alert.workflowId);
		const [stopping, staying] = setup.workers;
		const ranByStaying = ranBy(staying).size;
		let stopped: Promise<void> | undefined;
		const burst = await postNotificationBurst({
			url: alert.url,
			burst: 2,
			count: BURST,
			parallel: 20,
			acknowledgement: ACKNOWLEDGEMENT,
			midway: () => {
				stopped = setup.stopWorker(stopping);
			},
		});
		await stopped;
		// Acknowledging needs the webhook process, the database and the queue, not a worker.
		expect(burst.refused).toEqual([]);
		expect(burst.acknowledged).toBe(BURST);

		const after = await setup.waitForEnded(alert.workflowId, totalOf(before) + BURST, 600_000);
		const delta = Object.fromEntries(
			Object.entries(after).map(([status, count]) => [
				status,
				count - before[status as keyof typeof before],
			]),
		);
		const sms = alertSmsOf(2);
		const doubled = [...sms.values()].filter((count) => count > 1).length;
		const report = {
			acknowledged: burst.acknowledged,
			ended: delta,
			smsNumbers: sms.size,
			lost: BURST - sms.size,
			doubled,
		};
		console.log(
			`[queue] burst of ${BURST} with a worker stopped halfway: ${JSON.stringify(report)}`,
		);
		// What n8n itself does is reported above and in the README; the surviving worker took over.
		expect(ranBy(staying).size).toBeGreaterThan(ranByStaying);
	},
	BURST_TIMEOUT_MS,
);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number) {
	const deadline = Date.now() + timeoutMs;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
		await sleep(500);
	}
}

/** Publishes Cloopen Trigger (opened to loopback) → No Operation; its production URL on the webhook process. */
async function publishTriggerToNoOp() {
	const webhookId = randomUUID();
	const workflowId = await setup.main.importWorkflow(
		triggerToNoOp('queue: Cloopen Trigger → No Operation', webhookId),
	);
	await setup.main.activateWorkflow(workflowId);
	return { workflowId, url: `${setup.webhook.baseUrl}/webhook/${webhookId}/cloopen` };
}

/** One call result notification as the platform posts it, and what came back. */
async function notify(url: string, callSid: string, timeoutMs = 120_000) {
	try {
		const response = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'text/plain;charset=utf-8' },
			body: notificationBody({
				kind: 'voiceVerify',
				to: '13800000002',
				callSid,
				result: '2',
				duration: 0,
			}),
			signal: AbortSignal.timeout(timeoutMs),
		});
		const text = await response.text();
		return {
			acknowledged: response.status === 200 && text === ACKNOWLEDGEMENT,
			answer: `HTTP ${response.status} ${text.slice(0, 80)}`,
		};
	} catch (error) {
		return { acknowledged: false, answer: `no answer: ${(error as Error).message}` };
	}
}

/**
 * The statuses of a workflow's executions that hold this callSid, read from PostgreSQL itself (so
 * also when n8n is down).
 */
const executionsWith = (workflowId: string, callSid: string) =>
	setup.postgres
		.query(
			`select e.status from execution_entity e join execution_data d on d."executionId" = e.id where e."workflowId" = '${workflowId}' and d.data like '%${callSid}%' order by e.id`,
		)
		.map(([status]) => status);

describe('when n8n cannot take a notification', () => {
	let trigger: { workflowId: string; url: string };
	const sid = (test: string) => test.padEnd(32, '0');

	beforeAll(async () => {
		trigger = await publishTriggerToNoOp();
		expect((await notify(trigger.url, randomUUID().replace(/-/g, ''))).acknowledged).toBe(true);
	}, 120_000);

	test(
		'PostgreSQL stops while n8n stores the execution: the trigger does not acknowledge, and the resend runs once the database is back',
		async () => {
			const postgres = setup.postgres;
			// n8n's inserts into the executions table wait on this lock: the moment between accepting and storing.
			const unlock = await postgres.lockTable('execution_entity', 'EXCLUSIVE');
			let answer: ReturnType<typeof notify>;
			try {
				answer = notify(trigger.url, sid('a'));
				await until(
					'the insert waits for the lock',
					() =>
						Number(
							postgres.query(
								`select count(*) from pg_stat_activity where wait_event_type = 'Lock' and query ilike 'insert into %execution_entity%'`,
							)[0][0],
						) >= 1,
					60_000,
				);
				await postgres.halt();
			} finally {
				unlock();
			}
			const refused = await answer;
			console.log(
				`[queue] PostgreSQL stopped while storing: the trigger answered ${refused.answer}`,
			);
			// n8n's answer when storing the execution failed.
			expect(refused.answer).toMatch(/^HTTP 500 .*There was a problem executing the workflow/);
			expect(refused.acknowledged).toBe(false);

			await postgres.resume();
			// The platform's resend: n8n answers 503 until its database connection has recovered.
			await until(
				'the resend is acknowledged',
				async () => (await notify(trigger.url, sid('a'), 30_000)).acknowledged,
				180_000,
			);
			await until(
				'the resend ran',
				() => executionsWith(trigger.workflowId, sid('a')).includes('success'),
				120_000,
			);
			expect(executionsWith(trigger.workflowId, sid('a'))).toEqual(['success']);
			// The main process's own connection, for the tests after this one.
			await until(
				'the main process reads the database again',
				async () => {
					try {
						await setup.main.api('GET', '/workflows?limit=1');
						return true;
					} catch {
						return false;
					}
				},
				120_000,
			);
		},
		BURST_TIMEOUT_MS,
	);

	test(
		`a burst of ${BURST} with one worker killed (SIGKILL) halfway: every acknowledged notification has an execution n8n shows; what becomes of the killed worker's executions is measured`,
		async () => {
			await setup.addWorker();
			const alertCopy = loadExample('alert-on-failed-voice-codes.json', setup.emulator.appId);
			const trigger = alertCopy.nodes.find(
				(node) => node.type === 'n8n-nodes-cloopen.cloopenTrigger',
			);
			if (!trigger) throw new Error('the alert example has no Cloopen Trigger');
			trigger.webhookId = randomUUID();
			const workflowId = await setup.main.importWorkflow(alertCopy, {
				credentials: { cloopenApi: setup.credentialId },
			});
			await setup.main.activateWorkflow(workflowId);
			const url = `${setup.webhook.baseUrl}/webhook/${trigger.webhookId}/cloopen`;

			let killed: Promise<void> | undefined;
			const burst = await postNotificationBurst({
				url,
				burst: 3,
				count: BURST,
				parallel: 20,
				acknowledgement: ACKNOWLEDGEMENT,
				midway: () => {
					killed = setup.killWorker(setup.workers[0]);
				},
			});
			await killed;
			// Acknowledging needs the webhook process, the database and the queue, not a worker.
			expect(burst.refused).toEqual([]);

			// Until every execution ended, or nothing changed for 90 s (n8n checks for stalled jobs every 30 s).
			let counts: StatusCounts = await countByStatus(setup.main, workflowId);
			let unchangedSince = Date.now();
			const deadline = Date.now() + 600_000;
			while (
				endedOf(counts) < BURST &&
				Date.now() - unchangedSince < 90_000 &&
				Date.now() < deadline
			) {
				await sleep(5_000);
				const next = await countByStatus(setup.main, workflowId);
				if (JSON.stringify(next) !== JSON.stringify(counts)) unchangedSince = Date.now();
				counts = next;
			}
			const rows = setup.postgres.query(
				`select e.status, substring(d.data from '(0003[0-9]{28})') from execution_entity e join execution_data d on d."executionId" = e.id where e."workflowId" = '${workflowId}'`,
			);
			const statusesOf = new Map<string, string[]>();
			for (const [status, callSid] of rows)
				statusesOf.set(callSid, [...(statusesOf.get(callSid) ?? []), status]);
			const acknowledged = Array.from({ length: BURST }, (_, index) => burstCallSid(3, index));
			const withoutExecution = acknowledged.filter((callSid) => !statusesOf.has(callSid));
			// n8n replaces the data of an execution it gives up on with the error: its callSid is gone.
			const unattributed = rows.filter(([, callSid]) => !callSid).map(([status]) => status);
			const sms = alertSmsOf(3);
			const report = {
				acknowledged: burst.acknowledged,
				executions: Object.fromEntries(Object.entries(counts).filter(([, count]) => count > 0)),
				withoutExecutionOfItsOwn: withoutExecution.length,
				executionsWithoutTheirData: unattributed,
				moreThanOneExecution: [...statusesOf]
					.filter(([callSid, list]) => callSid && list.length > 1)
					.map(([callSid]) => callSid),
				smsNumbers: sms.size,
				smsDoubled: [...sms.values()].filter((count) => count > 1).length,
			};
			console.log(
				`[queue] burst of ${BURST} with a worker killed halfway: ${JSON.stringify(report)}`,
			);
			// Nothing acknowledged disappears without a trace: there are as many executions as notifications,
			// and each one not found by its callSid is one of those n8n gave up on (status error); a killed
			// worker's may also stay running or new. The README says how to find them.
			expect(rows.length).toBe(burst.acknowledged);
			expect(withoutExecution.length).toBe(unattributed.length);
			expect(unattributed.every((status) => status === 'error')).toBe(true);
		},
		BURST_TIMEOUT_MS,
	);

	// Last in this file: n8n's processes exit when Redis is gone for 10 s.
	test(
		"Redis fails after n8n found the webhook and before it queued the execution: the trigger does not acknowledge, nor one posted after; n8n's processes then exit",
		async () => {
			const redis = setup.redis;
			// Writes wait: n8n still finds the webhook, stores the execution, and then waits to queue it.
			redis.command('CLIENT', 'PAUSE', '120000', 'WRITE');
			const answer = notify(trigger.url, sid('b'));
			await until(
				'the trigger stored its execution',
				() => executionsWith(trigger.workflowId, sid('b')).length === 1,
				60_000,
			);
			await redis.halt();
			const afterwards = await notify(trigger.url, sid('c'));
			const refused = await answer;
			console.log(
				`[queue] Redis failed before queuing: the trigger got "${refused.answer}"; one posted after Redis was gone got "${afterwards.answer}"`,
			);
			expect({ stored: refused.acknowledged, afterwards: afterwards.acknowledged }).toEqual({
				stored: false,
				afterwards: false,
			});
			await until(
				'the webhook process exits',
				() => /Exiting process due to Redis connection error/.test(setup.webhook.log()),
				60_000,
			);
		},
		BURST_TIMEOUT_MS,
	);
});
