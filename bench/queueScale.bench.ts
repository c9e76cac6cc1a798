/**
 * `npm run bench:queue` (part of `npm run bench`): call result notifications per second through n8n's
 * webhook process to finished alert executions (Cloopen Trigger → Cloopen SMS), with one and with two
 * workers, in the queue-mode setup of queue.e2e.test.ts. Rounds alternate 1, 2, 1, 2 workers so that
 * drift on the machine hits both; the figure is each round's rate and the median per worker count.
 * Prints its figures; fails unless every notification became a successful execution. jest runs it
 * (jest.bench.config.js: n8n installed and the package packed once); the bench smoke imports it.
 */
import { ACKNOWLEDGEMENT } from '../emulator';
import { postNotificationBurst } from '../dev/n8n/queue/notificationBurst';
import { totalOf, type QueueSetup } from '../dev/n8n/queue/queueSetup';
import { benchScript, runBenchReport } from './runBench';
import { withQueueSetup } from './sharedN8n';
import { benchSize, SMOKE } from './smoke';

const PER_ROUND = benchSize('QUEUE_BENCH_NOTIFICATIONS', 300, 10);
const ROUNDS = SMOKE ? [1, 2] : [1, 2, 1, 2];
const WARM_UP = benchSize('QUEUE_BENCH_WARM_UP', 30, 5);

const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function measure(setup: QueueSetup) {
	const alert = await setup.publishAlertWorkflow();
	// warm-up: first executions compile and cache what n8n needs
	await postNotificationBurst({
		url: alert.url,
		burst: 90,
		count: WARM_UP,
		parallel: 10,
		acknowledgement: ACKNOWLEDGEMENT,
	});
	await setup.waitForEnded(alert.workflowId, WARM_UP, 120_000);

	const rates: Record<number, number[]> = { 1: [], 2: [] };
	for (const [round, workers] of ROUNDS.entries()) {
		while (setup.workers.length < workers) await setup.addWorker();
		while (setup.workers.length > workers)
			await setup.stopWorker(setup.workers[setup.workers.length - 1]);
		const before = await setup.finalCounts(alert.workflowId);
		const started = Date.now();
		const burst = await postNotificationBurst({
			url: alert.url,
			burst: round + 1,
			count: PER_ROUND,
			parallel: 20,
			acknowledgement: ACKNOWLEDGEMENT,
		});
		const after = await setup.waitForEnded(alert.workflowId, totalOf(before) + PER_ROUND, 600_000);
		const seconds = (Date.now() - started) / 1000;
		const succeeded = after.success - before.success;
		if (burst.acknowledged !== PER_ROUND || succeeded !== PER_ROUND)
			throw new Error(
				`round ${round + 1}: of ${PER_ROUND} notifications ${burst.acknowledged} acknowledged, ${succeeded} succeeded (${burst.refused.slice(0, 5).join('; ')})`,
			);
		rates[workers].push(PER_ROUND / seconds);
		console.log(
			`[bench:queue] round ${round + 1}: ${workers} worker(s), ${PER_ROUND} notifications → ${PER_ROUND} alert executions in ${seconds.toFixed(1)} s = ${(PER_ROUND / seconds).toFixed(1)}/s (acknowledged after ${(burst.durationMs / 1000).toFixed(1)} s)`,
		);
	}
	const one = median(rates[1]);
	const two = median(rates[2]);
	console.log(
		`[bench:queue] median: 1 worker ${one.toFixed(1)}/s, 2 workers ${two.toFixed(1)}/s, ratio 2/1 = ${(two / one).toFixed(2)}`,
	);
}

export const bench = benchScript(module, {
	title: 'npm run bench:queue',
	setup: `${PER_ROUND} notifications per round, workers ${ROUNDS.join(', ')}; median`,
	measure: () => withQueueSetup(1, {}, measure),
});

// Run by jest as its test file (npm run bench:queue), the bench is its one test; imported, only handed over.
if (typeof expect === 'function' && expect.getState().testPath === __filename)
	test(
		'notifications per second to finished alert executions, one worker vs two',
		() => runBenchReport(bench),
		3_600_000,
	);
