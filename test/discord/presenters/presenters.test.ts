import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { announcements } from '../../../src/discord/presenters/announce.ts';
import { directorsCutFile } from '../../../src/report/markdown.ts';
import { nightActionMessage, SKIP_VALUE } from '../../../src/discord/presenters/night-action.ts';
import { personaSpeech, personaSpeechAsBot, webhookName } from '../../../src/discord/presenters/persona-speech.ts';
import { reminderDue, reminderMessage } from '../../../src/discord/presenters/reminder.ts';
import { roleCardMessage } from '../../../src/discord/presenters/role-card.ts';
import { closedVoteMessage, NO_LYNCH_VALUE, voteMessage } from '../../../src/discord/presenters/vote.ts';
import * as engine from '../../../src/game/index.ts';
import type { RoleId } from '../../../src/game/index.ts';
import { TestGame } from '../../support/test-game.ts';

const SEVEN = ['mafia', 'mafia', 'detective', 'doctor', 'townsperson', 'townsperson', 'townsperson'] as const;
/** A game whose Mafia have their thread and whose vote message stands in the channel. */
const IN_A_THREAD = { mafiaByDm: false, voteMessageShown: true } as const;
// Messages are read as Discord receives them (serialized), parsed for the parts the tests look at.
const embedSchema = z.object({
  title: z.string().optional(),
  description: z.string().optional(),
  fields: z.array(z.object({ name: z.string(), value: z.string() })).optional(),
});
const selectSchema = z.object({ custom_id: z.string(), options: z.array(z.object({ value: z.string() })) });
const sent = (message: unknown): unknown => JSON.parse(JSON.stringify(message));
/** The first embed of a message. */
const embedOf = (message: unknown) => z.object({ embeds: z.tuple([embedSchema], z.unknown()) }).parse(sent(message)).embeds[0];
/** The select menu in a message's first row. */
const menuOf = (message: unknown) =>
  z.object({ components: z.tuple([z.object({ components: z.tuple([selectSchema], z.unknown()) })], z.unknown()) }).parse(sent(message))
    .components[0].components[0];

describe('what players are shown', () => {
  it('GIVEN a Mafia member WHEN their role card is made THEN it names the role, the team and the roles in play, and pings nobody', () => {
    const t = TestGame.started([...SEVEN]);
    const card = roleCardMessage(engine.viewFor(t.state, t.by('mafia').id)!, 'game');
    const embed = embedOf(card);
    expect(embed.title).toBe('You are the Mafia');
    const fields = embed.fields?.map((f) => f.name);
    expect(fields).toEqual(['At night', 'Your team', 'Roles in this game']);
    expect(embed.fields?.[1]?.value).toContain(t.by('mafia', 1).name);
    expect(card.allowedMentions).toEqual({ parse: [] });
  });

  it('GIVEN a Townsperson WHEN their card is made THEN it shows no team and no night action', () => {
    const t = TestGame.started([...SEVEN]);
    const card = roleCardMessage(engine.viewFor(t.state, t.by('townsperson').id)!, 'game');
    expect(embedOf(card).fields?.map((f) => f.name)).toEqual(['Roles in this game']);
  });

  it('GIVEN the Doctor at night WHEN their DM menu is made THEN it lists exactly the legal targets plus "Nobody tonight"', () => {
    const t = TestGame.started([...SEVEN], { doctorSelfProtect: false });
    const menu = menuOf(nightActionMessage(t.state, t.by('doctor').id));
    const values = menu.options.map((o) => o.value);
    const legal = engine.legalNightTargets(t.state, t.by('doctor').id).map((p) => p.id);
    expect(values).toEqual([...legal, SKIP_VALUE]);
    expect(values).not.toContain(t.by('doctor').id);
    expect(menu.custom_id).toBe(`night:${t.state.id}:1`);
  });

  it('GIVEN a Townsperson or a player who already acted WHEN a night menu is asked for THEN there is none', () => {
    const t = TestGame.started([...SEVEN]);
    expect(nightActionMessage(t.state, t.by('townsperson').id)).toBeNull();
    t.must(t.act(t.by('detective'), t.by('mafia')));
    expect(nightActionMessage(t.state, t.by('detective').id)).not.toBeNull(); // may still change their mind
  });

  it('GIVEN votes cast WHEN the vote message is made THEN it shows the tally with voters, who is still to vote, and a menu of the living plus no lynch', () => {
    const t = TestGame.started([...SEVEN]);
    t.advanceTo('vote');
    t.must(t.vote(t.by('doctor'), t.by('mafia')));
    const message = voteMessage(t.state);
    expect(embedOf(message).description).toContain(`**${t.by('mafia').name}** — 1: ${t.by('doctor').name}`);
    expect(embedOf(message).description).toContain('Still to vote:');
    const options = menuOf(message).options.map((o) => o.value);
    expect(options).toHaveLength(8);
    expect(options.at(-1)).toBe(NO_LYNCH_VALUE);
  });

  it('GIVEN a vote where the lynched player had voted too, after someone changed their mind, WHEN the closed vote is shown THEN it is the tally the engine counted, their vote included', () => {
    const t = TestGame.started([...SEVEN]);
    t.advanceTo('vote');
    const [doomed, doctor] = [t.by('mafia'), t.by('doctor')];
    t.must(t.vote(t.by('townsperson', 0), doctor));
    t.must(engine.unvote(t.state, { voterId: t.by('townsperson', 0).id, at: t.at }));
    t.must(t.vote(doomed, doctor));
    for (const p of t.state.players) if (p.id !== doomed.id) t.must(t.vote(p, doomed));
    expect(t.state.phase).not.toBe('vote');
    const resolved = t.events('vote_resolved').at(-1)!.payload;
    const text = embedOf(closedVoteMessage(t.state)).description;
    for (const { targetId, voters } of resolved.tally) {
      expect(text).toContain(`**${t.player(targetId).name}** — ${voters.length}: ${voters.map((v) => t.player(v).name).join(', ')}`);
    }
    expect(text).toContain(`**${doctor.name}** — 1: ${doomed.name}`);
    expect(text).toContain(`${doomed.name} is lynched.`);
    expect(closedVoteMessage(t.state).components).toEqual([]);
  });

  it('GIVEN a 24-player game WHEN the vote menu is made THEN it stays within Discord’s 25 options', () => {
    const t = TestGame.started([...Array<RoleId>(6).fill('mafia'), ...Array<RoleId>(18).fill('townsperson')]);
    t.advanceTo('vote');
    const options = menuOf(voteMessage(t.state)).options;
    expect(options).toHaveLength(25);
  });

  it('GIVEN a night that ends WHEN it is announced THEN the channel hears of dawn and the death, never of secret events', () => {
    const t = TestGame.started([...SEVEN]);
    const victim = t.by('townsperson');
    t.must(t.act(t.by('detective'), t.by('mafia')));
    t.must(t.act(t.by('doctor'), t.by('doctor')));
    t.must(t.act(t.by('mafia', 0), victim));
    const events = t.must(t.act(t.by('mafia', 1), victim));
    const [message] = announcements(t.state, events, IN_A_THREAD);
    expect(message!.content).toContain('Dawn 1');
    expect(message!.content).toContain(`${victim.name} was killed by the Mafia`);
    expect(message!.content).not.toMatch(/investigat|proposes|Tonight's target/);
    // Dawn is a pause before the day: the day comes in the same message, and its own start says nothing.
    expect(message!.content!.split('\n').at(-1)).toMatch(
      /^☀️ \*\*Day 1\*\* starts <t:\d+:R> and runs until <t:\d+:R>: talk it over\. The vote follows\.$/,
    );
    t.advanceTo('day');
    expect(announcements(t.state, t.state.log.slice(-1), IN_A_THREAD)).toEqual([]);
  });

  it('GIVEN the day’s recap recorded as the night falls WHEN the night is on THEN nothing is posted; WHEN dawn comes THEN the recap opens the dawn’s message', () => {
    const t = TestGame.started([...SEVEN]);
    t.advanceTo('vote');
    t.advanceTo('night');
    const day = t.state.day - 1;
    const recorded = t.must(engine.recordDaySummary(t.state, { day, text: 'Nobody trusted the baker.', at: t.at }));
    expect(announcements(t.state, recorded, IN_A_THREAD)).toEqual([]);
    const victim = t.by('townsperson');
    t.must(t.act(t.by('detective'), t.by('mafia')));
    t.must(t.act(t.by('doctor'), t.by('doctor')));
    t.must(t.act(t.by('mafia', 0), victim));
    const [message] = announcements(t.state, t.must(t.act(t.by('mafia', 1), victim)), IN_A_THREAD);
    expect(message!.content!.split('\n')[0]).toBe(`📜 Day ${day} in short: Nobody trusted the baker.`);
    expect(message!.content).toContain(`${victim.name} was killed by the Mafia`);
  });

  it('GIVEN a recap recorded after the dawn (a slow model) WHEN it is recorded THEN it is posted at once, and never again', () => {
    const t = TestGame.started([...SEVEN]);
    t.advanceTo('vote');
    t.advanceTo('night');
    t.advanceTo('day');
    const day = t.state.day - 1;
    const [late] = announcements(t.state, t.must(engine.recordDaySummary(t.state, { day, text: 'Late words.', at: t.at })), IN_A_THREAD);
    expect(late!.content).toBe(`📜 Day ${day} in short: Late words.`);
  });

  it('GIVEN the game ends at dawn WHEN announced THEN one message says what happened and reveals every role with the winner', () => {
    const t = TestGame.started(['mafia', 'townsperson', 'townsperson']);
    const events = t.must(t.act(t.by('mafia'), t.by('townsperson')));
    const messages = announcements(t.state, events, IN_A_THREAD);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.content).toContain('was killed by the Mafia');
    const last = embedOf(messages[0]);
    expect(last.title).toBe('The Mafia win!');
    for (const p of t.state.players) expect(last.description).toContain(p.name);
  });

  it('GIVEN an AI seat named after the platform with a long text WHEN its webhook speech is made THEN the name is accepted by Discord and the text fits', () => {
    expect(webhookName('Discord Dave')).toBe('d1scord Dave');
    expect(webhookName('x'.repeat(100))).toHaveLength(80);
    const speech = personaSpeech('Ada', 'word '.repeat(600), null);
    expect((speech.content as string).length).toBeLessThanOrEqual(2000);
    expect(speech.allowedMentions).toEqual({ parse: [] });
  });

  it('GIVEN an AI line with a masked link, a heading and bold WHEN it is made into webhook or bot speech THEN it reads as typed: nothing renders as Markdown', () => {
    const line = '# Trust me\n[free nitro](https://evil.example) is **safe**\n> quoted';
    const shown = '\\# Trust me\n\\[free nitro](https://evil.example) is \\*\\*safe\\*\\*\n\\> quoted';
    expect(personaSpeech('Ada', line, null).content).toBe(shown);
    expect(personaSpeechAsBot('Ada', line).content).toBe(`**Ada:** ${shown}`);
    expect(personaSpeechAsBot('*Ada*', 'hi').content).toBe('**\\*Ada\\*:** hi');
  });

  it('GIVEN a will with a masked link WHEN its writer’s death is announced and the director’s cut is made THEN the link is shown as typed, not rendered', () => {
    const t = TestGame.started(['mafia', 'townsperson', 'townsperson']);
    const victim = t.by('townsperson');
    t.must(engine.writeWill(t.state, { playerId: victim.id, text: '[my notes](https://evil.example)', at: t.at }));
    const events = t.must(t.act(t.by('mafia'), victim));
    const [message] = announcements(t.state, events, IN_A_THREAD);
    expect(message!.content).toContain('Their will reads: “\\[my notes](https://evil.example)”');
    expect(directorsCutFile(t.state, 'Game')!.content).toContain('Their will reads: “\\[my notes](https://evil.example)”');
  });

  it('GIVEN an ended game WHEN the director’s cut file is made THEN it holds the roles table, the public record and the private reasoning; not before the end', () => {
    const t = TestGame.started(['mafia', 'townsperson', 'townsperson']);
    expect(directorsCutFile(t.state, 'Game')).toBeNull();
    t.must(engine.recordReasoning(t.state, { playerId: t.by('mafia').id, decision: 'night action', text: 'the quiet one dies', at: t.at }));
    t.must(t.act(t.by('mafia'), t.by('townsperson')));
    const file = directorsCutFile(t.state, 'Game')!;
    expect(file.name).toBe('directors-cut-test.md');
    expect(file.content).toContain('| 1 |');
    expect(file.content).toContain('the quiet one dies');
  });
});

describe('reminders before a deadline', () => {
  const lynchToLastWords = (t: TestGame, target: engine.PlayerState) => {
    t.advanceTo('vote');
    for (const p of t.state.players.filter((q) => q.alive && q.id !== target.id)) t.must(t.vote(p, target));
    if (t.state.phase === 'vote') t.advance();
    expect(t.state.phase).toBe('last_words');
  };

  it('GIVEN a person lynched WHEN their last words are due THEN the channel gets no reminder: their opening line named them and counts down to the end', () => {
    const t = TestGame.started([...SEVEN]);
    const bob = t.by('townsperson');
    lynchToLastWords(t, bob);
    expect(reminderMessage(t.state)).toBeNull();
  });

  it('GIVEN a night WHEN its reminder is due THEN the channel gets none (only those who owe an action, by DM)', () => {
    const t = TestGame.started([...SEVEN]);
    expect(t.state.phase).toBe('night');
    expect(reminderMessage(t.state)).toBeNull();
  });

  it('GIVEN a 300 s day and a 90 s vote WHEN the offsets come THEN each phase gets one reminder: the earliest that is at most half of it', () => {
    const t = TestGame.started([...SEVEN]);
    t.advanceTo('day');
    expect([60_000, 15_000].filter((ms) => reminderDue(t.state, ms))).toEqual([60_000]);
    t.advanceTo('vote');
    expect([60_000, 15_000].filter((ms) => reminderDue(t.state, ms))).toEqual([15_000]);
  });
});

describe('the vote message', () => {
  it('GIVEN an AI votes with a line in one change and a person talks during the vote WHEN the vote message is drawn THEN the AI line stands beside the tally (live and closed), and the person’s words are not repeated there', () => {
    const players = [
      { name: 'Ada', kind: 'ai' as const },
      { name: 'Bob', kind: 'human' as const },
      { name: 'Cy', kind: 'human' as const },
      { name: 'Di', kind: 'human' as const },
    ];
    const t = TestGame.seated(players, ['mafia', 'townsperson', 'townsperson', 'townsperson'], { nightOneKill: false });
    t.advanceTo('vote');
    const [ada, bob] = [t.player('p1'), t.player('p2')];
    const at = t.state.log.at(-1)!.at + 1;
    // The AI driver's command: its words and its vote, one change at one moment.
    t.must(
      ((s: engine.GameState) => {
        const spoke = engine.speak(s, { playerId: ada.id, channel: 'town', text: 'Bob has been far too quiet.', at });
        if (!spoke.ok) return spoke;
        const voted = engine.vote(spoke.value.state, { voterId: ada.id, targetId: bob.id, at });
        return voted.ok
          ? { ok: true as const, value: { state: voted.value.state, events: [...spoke.value.events, ...voted.value.events] } }
          : voted;
      })(t.state),
    );
    t.must(t.say(bob, 'I am innocent!'));

    const live = embedOf(voteMessage(t.state)).description ?? '';
    expect(live).toContain('Ada: “Bob has been far too quiet.”');
    expect(live).not.toContain('I am innocent');
    t.advance();
    expect(embedOf(closedVoteMessage(t.state)).description).toContain('Ada: “Bob has been far too quiet.”');
  });
});
