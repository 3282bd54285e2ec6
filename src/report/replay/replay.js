// @ts-check
// The replay page's script, inlined into each replay (src/report/replay-html.ts). It renders the
// game model embedded beside it. Every name and line is hostile input: text goes in through
// textContent only, never as markup. Roles, and the thoughts that would give them away, are in the
// data but enter the page only with the spoilers on.

/** @typedef {import('../replay-model.ts').ReplayModel} ReplayModel */
/** @typedef {ReplayModel['entries'][number]} Entry */
/** @typedef {Extract<Entry, { kind: 'turn' }>} Turn */
/** @typedef {NonNullable<Turn['mind']>} Mind */

/** Reads shown at once beside a decision; the rest fold away. */
const TOP_READS = 3;

/** In place of thoughts that would give a role away; the same words for every seat. */
const SPOILER_NOTE = 'Thoughts withheld: they name a role or a side, or rest on what only this seat knew. The spoilers show them.';

const OUTCOME = { counted: '', late: 'too late: did not count', refused: 'refused by the rules: did not count' };

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string} [className]
 * @param {string} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** @param {ReplayModel} model */
function replay(model) {
  const players = new Map(model.players.map((p) => [p.id, p]));
  const view = { player: '', spoilers: false };

  /** A player's name; with the spoilers on, coloured by their faction. @param {string} id */
  function name(id) {
    const player = players.get(id);
    const node = el('span', 'name', player ? player.name : id);
    if (view.spoilers && player?.role) node.classList.add(`faction-${player.role.faction}`);
    return node;
  }

  /** The role label, made only while the spoilers are on. @param {string} id */
  function role(id) {
    const player = players.get(id);
    if (!view.spoilers || !player?.role) return null;
    const node = el('span', `role faction-${player.role.faction}`, player.role.name);
    node.dataset.role = player.role.name;
    return node;
  }

  /** Who a seat is: name, human or AI, and the role with the spoilers on. @param {string} id */
  function who(id) {
    const label = role(id);
    const kind = el('span', 'kind', players.get(id)?.kind === 'human' ? 'human' : 'AI');
    return label ? [name(id), kind, label] : [name(id), kind];
  }

  /**
   * One read of the table: a player, how Mafia they look and the role the seat guessed for them
   * (its guess, never the truth: shown as the seat wrote it).
   * @param {Mind['suspicion'][number]} read
   * @param {Mind['guesses']} guesses
   */
  function suspect([playerId, value], guesses) {
    const item = el('li', 'read');
    const bar = el('span', 'bar');
    bar.style.setProperty('--value', String(value));
    item.append(name(playerId), bar, el('span', 'value', value.toFixed(2)));
    const guess = guesses[playerId];
    if (guess) item.append(el('span', 'guess', `likely ${guess}`));
    return item;
  }

  /** @param {Mind} mind */
  function thoughts(mind) {
    const aside = el('aside', 'mind');
    aside.dataset.phase = mind.phase;
    aside.dataset.day = String(mind.day);
    const notes = [mind.fallback ? `offline fallback: ${mind.fallback}` : '', OUTCOME[mind.outcome]].filter(Boolean);
    aside.append(el('p', 'decision', `${mind.when} · ${mind.decision}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`));
    if (mind.spoiler && !view.spoilers) {
      aside.append(el('p', 'reasoning withheld', SPOILER_NOTE));
      return aside;
    }
    aside.append(el('p', 'reasoning', mind.text));
    if (mind.suspicion.length > 0) {
      const reads = el('div', 'beliefs');
      const top = el('ol', 'reads');
      top.append(...mind.suspicion.slice(0, TOP_READS).map((read) => suspect(read, mind.guesses)));
      reads.append(el('p', 'label', 'Suspects'), top);
      if (mind.suspicion.length > TOP_READS) {
        const all = el('details', 'all-reads');
        const rest = el('ol', 'reads');
        rest.append(...mind.suspicion.slice(TOP_READS).map((read) => suspect(read, mind.guesses)));
        all.append(el('summary', undefined, `and ${mind.suspicion.length - TOP_READS} more`), rest);
        reads.append(all);
      }
      aside.append(reads);
    }
    if (mind.tools.length > 0) {
      const tools = el('details', 'tools');
      tools.append(el('summary', undefined, `Tools called (${mind.tools.length})`));
      const list = el('ol');
      for (const tool of mind.tools) {
        const item = el('li', 'tool');
        item.append(el('code', 'call', `${tool.name}(${tool.input})`), el('pre', 'output', tool.output));
        list.append(item);
      }
      tools.append(list);
      aside.append(tools);
    }
    return aside;
  }

  /** @param {{ text: string, tone: string }} line */
  function said(line) {
    return el('p', `line tone-${line.tone}`, line.text);
  }

  /** @param {Turn} turn */
  function turnOf(turn) {
    const node = el('div', 'turn');
    node.dataset.player = turn.playerId;
    const words = el('div', 'said');
    const speaker = el('p', 'who');
    speaker.append(...who(turn.playerId));
    words.append(speaker);
    if (turn.lines.length > 0) words.append(...turn.lines.map(said));
    else words.append(el('p', 'line quiet', turn.mind?.outcome === 'counted' ? '(no words, no move)' : '(nothing counted)'));
    node.append(words);
    if (turn.mind) node.append(thoughts(turn.mind));
    return node;
  }

  /** @param {Entry} entry */
  function shown(entry) {
    if (entry.kind === 'phase') return true;
    if (entry.secret && !view.spoilers) return false;
    return view.player === '' || entry.playerId === null || entry.playerId === view.player;
  }

  /** @param {Entry} entry */
  function render(entry) {
    if (entry.kind === 'phase') {
      const node = el('h2', `phase phase-${entry.phase}`, entry.title);
      node.dataset.day = String(entry.day);
      return node;
    }
    const node = entry.kind === 'turn' ? turnOf(entry) : said(entry.line);
    if (entry.kind === 'event' && entry.playerId) node.dataset.player = entry.playerId;
    if (entry.secret) node.classList.add('secret');
    return node;
  }

  const roster = el('ol', 'roster');
  const timeline = el('section', 'timeline');
  timeline.setAttribute('aria-label', 'Timeline');

  function draw() {
    roster.replaceChildren(
      ...model.players.map((p) => {
        const item = el('li', p.id === view.player ? 'player chosen' : 'player');
        item.dataset.playerId = p.id;
        item.append(el('span', 'seat', String(p.seat)), ...who(p.id), el('span', 'fate', p.fate));
        return item;
      }),
    );
    timeline.replaceChildren(...model.entries.filter(shown).map(render));
  }

  const heading = el('header');
  heading.append(el('h1', undefined, model.title));
  if (model.outcome) heading.append(el('p', 'outcome', model.outcome));

  const controls = el('div', 'controls');
  const pick = el('select');
  pick.id = 'player';
  pick.append(new Option('Everyone', ''), ...model.players.map((p) => new Option(p.name, p.id)));
  const pickLabel = el('label', undefined, 'Player');
  pickLabel.htmlFor = pick.id;
  const spoilers = el('input');
  spoilers.type = 'checkbox';
  spoilers.id = 'spoilers';
  const spoilersLabel = el('label');
  spoilersLabel.append(spoilers, ' Spoilers: roles and the night’s secrets');
  controls.append(pickLabel, pick, spoilersLabel);
  pick.addEventListener('change', () => {
    view.player = pick.value;
    draw();
  });
  spoilers.addEventListener('change', () => {
    view.spoilers = spoilers.checked;
    draw();
  });

  const seats = el('section', 'players');
  seats.setAttribute('aria-label', 'Seats');
  seats.append(roster);
  heading.append(controls);
  document.getElementById('replay')?.replaceChildren(heading, seats, timeline);
  draw();
}

const data = document.getElementById('replay-data')?.textContent;
// The page's own data, written from the typed model by replay-html.ts beside this script.
// eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- a JSDoc cast is invisible to the rule
if (data) replay(/** @type {ReplayModel} */ (JSON.parse(data)));
