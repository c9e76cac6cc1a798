import { customServerCredentials, runCloopen } from '../support/runCloopen';
import { HostileServer, pause, platformOk } from '../support/hostileServer';

/** The bill file download has its own, larger cap (Max File Size), and follows no redirect either. */
const APP = '8a216da8588b296f01589e5a7f3b0b3c';
const MB = 1024 * 1024;

async function billRun(
	file: (path: string) => { status: number; headers: Record<string, string>; body: Buffer },
	options = {},
) {
	const server = await new HostileServer((request, response) => {
		if (request.path.endsWith('/BillRecords')) {
			response.writeHead(200, { 'Content-Type': 'application/json' });
			response.end(
				platformOk({ downurl: `${server.baseUrl}/files/bill.csv`, token: 'check-code' }),
			);
			return;
		}
		const answer = file(request.path);
		response.writeHead(answer.status, answer.headers);
		response.end(answer.body);
	}).start();
	try {
		const run = await runCloopen(
			{
				resource: 'billRecords',
				operation: 'getDownloadInfo',
				appId: APP,
				download: true,
				options,
			},
			{ credentials: customServerCredentials(server.baseUrl) },
		);
		return { ...run, server };
	} finally {
		await server.stop();
	}
}

const csv = (bytes: number) => ({
	status: 200,
	headers: { 'Content-Type': 'text/csv' },
	body: Buffer.alloc(bytes, 'a'),
});

describe('bill file download', () => {
	it('a file above Max File Size fails the item with the cap named', async () => {
		const { error } = await billRun(() => csv(3 * MB), { maxFileSizeMb: 1 });
		expect(error?.message).toBe(
			"Cloopen's answer to Bill Records → download the file was not accepted: the bill file is larger than 1 MB",
		);
		expect(error?.description).toMatch(/raise "Max File Size \(MB\)"/);
	});

	it('the same file within a larger cap is downloaded whole', async () => {
		const { result, error } = await billRun(() => csv(3 * MB), { maxFileSizeMb: 5 });
		expect(error).toBeUndefined();
		const binary = result.outputOf('Cloopen')[0].binary?.data;
		expect(binary?.fileName).toBe('bill.csv');
		expect(Buffer.from(binary!.data, 'base64').length).toBe(3 * MB);
	});

	it('a redirect of the file is not followed, so the check code goes nowhere else', async () => {
		const elsewhere = await new HostileServer((_request, response) =>
			response.end('stolen'),
		).start();
		try {
			const { error } = await billRun(() => ({
				status: 302,
				headers: { Location: `${elsewhere.baseUrl}/x` },
				body: Buffer.alloc(0),
			}));
			expect(error?.message).toMatch(
				new RegExp(
					`redirect \\(HTTP 302\\) to ${new URL(elsewhere.baseUrl).host}; it was not followed`,
				),
			);
			await pause(100);
			expect(elsewhere.requests).toHaveLength(0);
		} finally {
			await elsewhere.stop();
		}
	});
});
