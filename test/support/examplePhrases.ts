/**
 * One description per thing the examples' sticky notes come back to: a line (a bullet or a
 * paragraph) of a note that mentions the thing says it in these exact words, so two examples cannot
 * describe it two ways (test/engine/examplesSafety.test.ts). A note may add to the phrase what is
 * particular to its example, after it.
 */
export interface ExamplePhrase {
	thing: string;
	/** A line mentioning the thing. */
	mention: RegExp;
	/** The words every such line uses. */
	phrase: string;
}

/** What test numbers are, in the words of the examples and of the Template ID field of SMS → Send Template. */
export const TEST_NUMBERS = 'it only reaches the test numbers registered in the console';

export const EXAMPLE_PHRASES: ExamplePhrase[] = [
	{
		thing: 'template 1',
		mention: /`1`[^.]*template|template[^.]*`1`|test template/i,
		phrase: `**Template ID** \`1\` is Cloopen's test template (\`{1}\` a code, \`{2}\` minutes): ${TEST_NUMBERS}.`,
	},
	{ thing: 'test numbers', mention: /test numbers?\b/i, phrase: TEST_NUMBERS },
	{
		thing: 'App ID',
		mention: /App ID/,
		phrase:
			'**App ID** is left empty in every Cloopen node, so the **Default App ID** of your Cloopen credentials is used. Enter an App ID in a node to use another application.',
	},
	{
		thing: 'a chat that is not public',
		mention: /not public|publicly available|open chat/i,
		phrase:
			"**Who can chat:** the chat is **not public**: try it with the editor's **Open chat**. To let others use it, turn on *Make Chat Publicly Available* in *When Chat Message Received* **and** set its **Authentication**.",
	},
];

/** The lines of these texts that mention a thing without its phrase: one per thing and line. */
export function linesAtOdds(texts: string[]): Array<{ thing: string; line: string }> {
	const lines = texts.flatMap((text) => text.split('\n'));
	return EXAMPLE_PHRASES.flatMap(({ thing, mention, phrase }) =>
		lines
			.filter((line) => mention.test(line) && !line.includes(phrase))
			.map((line) => ({ thing, line })),
	);
}
