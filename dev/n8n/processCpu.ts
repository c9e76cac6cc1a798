import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

function clockTicks(): number {
	ticksPerSecond ??=
		Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
	return ticksPerSecond;
}

/**
 * CPU time (user + system, in ms) used so far by every live process of a process group: an n8n the
 * suite started leads a group of its own, with its task runner in it. Read from /proc/<pid>/stat
 * (Linux); a process that ended in between no longer counts.
 */
export function processGroupCpuMs(groupId: number): number {
	let ticks = 0;
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		let stat: string;
		try {
			stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
		} catch {
			continue; // ended while being read
		}
		// The command name (field 2) is in parentheses and may hold spaces: count fields after it.
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		// fields[0] is field 3 (state): pgrp is field 5, utime 14, stime 15.
		if (Number(fields[2]) !== groupId) continue;
		ticks += Number(fields[11]) + Number(fields[12]);
	}
	return (ticks * 1000) / clockTicks();
}
