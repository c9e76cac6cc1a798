/**
 * One-time codes through n8n's AI Agent, as examples/ai-agent-one-time-code.json builds it: two Cloopen
 * Tools, One-Time Code → Send and Check with the counts kept by the node in a Data Table, so the model
 * passes only a number and the code typed. A scripted OpenAI-compatible model on 127.0.0.1 tries to
 * talk past the limits (more codes than allowed, extra arguments that would reset the counts, more
 * wrong codes than Max Attempts, a code used twice). The code the person hears is read from the
 * emulator.
 */
import { importExample, loadExample, type ExampleWorkflow } from '../../dev/examples';
import type { N8nInstance } from '../../dev/n8n/n8nInstance';
import { startSharedN8n } from '../../dev/n8n/sharedN8n';
import {
	startScriptedChatModel,
	type OfferedTool,
	type PlannedToolCall,
} from './fixtures/scriptedChatModel';
import { withPublishedChat } from './fixtures/publishedChat';
import { useEmulator } from '../support/useEmulator';
import { standaloneCodes } from '../support/standaloneCodes';

const EXAMPLE = 'ai-agent-one-time-code.json';
const SEND = 'Send_a_Sign-in_Code';
const CHECK = 'Check_a_Sign-in_Code';
const { emulator, credentials } = useEmulator({ callDurationMs: 300 }, { resetEachTest: false });
let n8n: N8nInstance;
let cloopenCredential: string;

const toolNamed = (name: string) => (tools: OfferedTool[]) =>
	tools.find((tool) => tool.name === name);
const send = (args: Record<string, unknown>): PlannedToolCall => ({ pick: toolNamed(SEND), args });
const check = (args: Record<string, unknown>): PlannedToolCall => ({
	pick: toolNamed(CHECK),
	args,
});

/** What a chat's model might add to talk the tools past the limits: none of it may count. */
const TALKING_PAST = {
	attempts: 0,
	used: false,
	maxAttempts: 100,
	maxSendsPerNumber: 100,
	action: 'send',
};

beforeAll(async () => {
	n8n = await startSharedN8n({ packageInstall: 'readme-npm-install' });
	cloopenCredential = await n8n.createCredential(
		'cloopenApi',
		'Cloopen emulator',
		credentials({ appId: emulator.appId }),
	);
});

afterAll(async () => {
	await n8n?.stop();
});

/**
 * Publishes `workflow` wired to a model that makes `plan`'s tool calls, in one turn, sends one chat
 * message, and returns what each tool answered the model (in the plan's order) and the reply. The
 * example ships a private chat without a webhookId; loadExample opens it as its note says a user
 * opens it to others (public), and the chat is asked at the URL n8n stored for this import
 * (publishedChat.ts). As imported, published, it answers 404 (cloopen.e2e.test.ts).
 */
async function chat(plan: PlannedToolCall[], workflow: ExampleWorkflow = loadExample(EXAMPLE)) {
	const model = await startScriptedChatModel(plan);
	try {
		return await withPublishedChat(
			n8n,
			{ workflow, model, cloopenCredential },
			async (published) => {
				const { status, output } = await published.send('hi', 'e2e-otp');
				expect(status).toBe(200);
				const answers = model.turns[1].body.messages
					.filter((message) => message.role === 'tool')
					.sort((a, b) => order(a.tool_call_id) - order(b.tool_call_id))
					.map((message) => parsed(message.content));
				return {
					answers,
					reply: output ?? '',
					shown: JSON.stringify(model.turns),
					workflowId: published.workflowId,
				};
			},
		);
	} finally {
		await model.close();
	}
}

/** The scripted model numbers its calls call_<turn>_<index>. */
const order = (id: string | undefined) => Number(id?.split('_').at(-1));

/** A tool answer as the model got it: the workflow's last node's item(s), as JSON text. */
function parsed(content: unknown): Record<string, unknown> {
	const text = typeof content === 'string' ? content : JSON.stringify(content);
	try {
		const value = JSON.parse(text) as unknown;
		return (Array.isArray(value) ? value[0] : value) as Record<string, unknown>;
	} catch {
		return { text };
	}
}

const callsTo = (to: string) => emulator.calls().filter((call) => call.to === to);
const codeHeardBy = (to: string) => String(callsTo(to).at(-1)?.fields.verifyCode);
const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000');

/**
 * n8n runs the tool calls of one turn in an order of its own (2.20 runs them last first), so a turn's
 * answers are compared as a set, sorted by status and attempts left.
 */
const bySituation = (answers: Array<Record<string, unknown>>) =>
	[...answers].sort(
		(a, b) =>
			String(a.status).localeCompare(String(b.status)) ||
			Number(b.attemptsLeft ?? 0) - Number(a.attemptsLeft ?? 0),
	);

test('the model asks for more codes to one number than the guards allow, with arguments that would reset the limits: one call, the rest refused by rule, nothing else sent', async () => {
	const to = '13800000101';
	const { answers, shown } = await chat([
		send({ to }),
		send({ to, ...TALKING_PAST }),
		send({ to: ` +86 ${to}`, ...TALKING_PAST, resendCooldownSeconds: 0 }),
	]);
	const refused = expect.objectContaining({
		status: 'refused',
		refusedBy: 'resend cooldown',
		retryAfterSeconds: expect.any(Number),
	});
	expect(bySituation(answers)).toEqual([
		refused,
		refused,
		expect.objectContaining({ status: 'sent', expiresAt: expect.stringMatching(/Z$/) }),
	]);
	expect(
		answers.every((answer) => answer.status === 'sent' || Number(answer.retryAfterSeconds) > 0),
	).toBe(true);
	expect(callsTo(to)).toHaveLength(1);
	// The model never sees the code: only the call carries it.
	expect(standaloneCodes(shown, codeHeardBy(to))).not.toContain(codeHeardBy(to));
	expect(shown).not.toMatch(/cv1\./);
});

test('more wrong codes than Max Attempts, each claiming no attempts so far: locked after five, then the right code is refused too', async () => {
	const to = '13800000103';
	expect((await chat([send({ to })])).answers).toEqual([
		expect.objectContaining({ status: 'sent' }),
	]);
	const code = codeHeardBy(to);
	const wrong = await chat(
		Array.from({ length: 6 }, () => check({ to, code: wrongFor(code), ...TALKING_PAST })),
	);
	expect(
		bySituation(wrong.answers).map(({ status, attemptsLeft }) => ({ status, attemptsLeft })),
	).toEqual([
		{ status: 'too_many_attempts', attemptsLeft: 0 },
		{ status: 'wrong_code', attemptsLeft: 4 },
		{ status: 'wrong_code', attemptsLeft: 3 },
		{ status: 'wrong_code', attemptsLeft: 2 },
		{ status: 'wrong_code', attemptsLeft: 1 },
		{ status: 'wrong_code', attemptsLeft: 0 },
	]);
	const right = await chat([check({ to, code, ...TALKING_PAST })]);
	expect(right.answers).toEqual([
		expect.objectContaining({ status: 'too_many_attempts', attemptsLeft: 0 }),
	]);
});

test('with Include Code in Output and Give Secrets to the AI Model on, the model is still never given the code', async () => {
	const workflow = loadExample(EXAMPLE);
	const sendTool = workflow.nodes.find((node) => node.name === 'Send a Sign-in Code');
	if (!sendTool) throw new Error(`${EXAMPLE} has no "Send a Sign-in Code" node`);
	sendTool.parameters = { ...sendTool.parameters, includeCode: true, giveSecretsToModel: true };
	const to = '13800000107';
	const { answers, shown } = await chat([send({ to })], workflow);
	expect(answers).toEqual([expect.objectContaining({ status: 'sent' })]);
	expect(answers[0]).not.toHaveProperty('code');
	expect(callsTo(to)).toHaveLength(1);
	expect(standaloneCodes(shown, codeHeardBy(to))).not.toContain(codeHeardBy(to));
});

test('the right code is approved once, then already used, whatever the model says about it', async () => {
	const to = '13800000104';
	await chat([send({ to })]);
	const code = codeHeardBy(to);
	const { answers, reply } = await chat([
		check({ to, code }),
		check({ to, code, used: false, attempts: 0 }),
	]);
	expect(bySituation(answers)).toEqual([
		expect.objectContaining({ status: 'already_used', approved: false }),
		expect.objectContaining({ status: 'approved', approved: true }),
	]);
	expect(reply).toContain('approved');
	expect(reply).toContain('already_used');
});

test('what the model is offered: two tools that take only the number (and the code typed)', async () => {
	const { shown } = await chat([check({ to: '13800000105', code: '000000' })]);
	const turns = JSON.parse(shown) as Array<{
		body: { tools?: Array<{ function: OfferedTool }> };
	}>;
	const offered = (turns[0].body.tools ?? []).map((tool) => tool.function);
	expect(
		Object.fromEntries(
			offered.map((tool) => [tool.name, Object.keys(tool.parameters.properties ?? {}).sort()]),
		),
	).toEqual({ [SEND]: ['to'], [CHECK]: ['code', 'to'] });
});

test('the tools count like the request example: the same settings as its Send Code, in the same table', () => {
	const request = importExample('one-time-code-request.json');
	const agent = importExample(EXAMPLE);
	const settingsOf = (workflow: ExampleWorkflow, operation: string) => {
		const node = workflow.nodes.find(
			(entry) =>
				entry.type.startsWith('n8n-nodes-cloopen.') && entry.parameters.operation === operation,
		);
		const settings: Record<string, unknown> = { ...node?.parameters };
		delete settings.to;
		return settings;
	};
	expect(settingsOf(agent, 'send')).toEqual(settingsOf(request, 'send'));
	expect(settingsOf(agent, 'send')).not.toHaveProperty('store');
	expect(agent.nodes.filter((node) => node.type === 'n8n-nodes-cloopen.cloopenTool')).toHaveLength(
		2,
	);
});
