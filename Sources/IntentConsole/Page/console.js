// The intentd console. Everything peers sent (app names, messages, update payloads) reaches
// the page through textContent or setAttribute, never as markup.
'use strict';

const token = new URLSearchParams(location.search).get('token') || '';
const SVG = 'http://www.w3.org/2000/svg';
const COLORS = ['#2f6fdf', '#d9480f', '#2b8a3e', '#7048e8', '#c2255c', '#0b7285', '#e67700', '#495057'];
const state = {
  status: null, locked: null, traffic: [], updates: [], bench: null,
  coverage: null, places: [], ride: null, rideApp: null, trail: [], session: null, expiry: 0, deadline: 0, waits: 0, typing: false, typedAt: 0, busy: false, appsShown: '', tokenRefused: false, colors: new Map(),
  drawing: new Set(),
};

// What an extension sends is shown within bounds, however much and however fast it sends:
// the transcript keeps its newest turns, and a summary is cut to a line or two.
const LIMITS = { turns: 200, summary: 300 };
// SiriKit's ride phases (INRidePhase) in the words a rider uses.
// Without a prototype: a phase an app calls "constructor" is no function's text.
const RIDE_PHASES = Object.assign(Object.create(null), { received: 'requested', confirmed: 'driver assigned', approachingPickup: 'driver on the way', pickup: 'at pickup', ongoing: 'on the way', completed: 'arrived', cancelled: 'cancelled' });

function brief(text) {
  return text.length > LIMITS.summary ? text.slice(0, LIMITS.summary) + '…' : text;
}

// Draws with `draw` at the next frame, once, however often it is asked for before then.
function redraw(draw) {
  if (state.drawing.has(draw)) return;
  state.drawing.add(draw);
  requestAnimationFrame(() => { state.drawing.delete(draw); draw(); });
}

// ---- small DOM helpers -------------------------------------------------------------

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  for (const child of children) append(node, child);
  return node;
}

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  setAttrs(node, attrs);
  for (const child of children) append(node, child);
  return node;
}

function setAttrs(node, attrs) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'onclick') node.addEventListener('click', value);
    else node.setAttribute(name, String(value));
  }
}

function append(node, child) {
  if (child === undefined || child === null || child === false) return;
  if (Array.isArray(child)) { child.forEach((c) => append(node, c)); return; }
  node.append(child instanceof Node ? child : document.createTextNode(String(child)));
}

function replace(id, ...children) {
  const node = document.getElementById(id);
  node.replaceChildren();
  children.forEach((c) => append(node, c));
  return node;
}

const TOKEN_REFUSED = "this page's token is no longer accepted (intentd made a new one): open the address in STATE/console.url";

const AUTHORIZATION = { authorized: 'allowed', denied: 'denied', restricted: 'restricted', notDetermined: 'not asked yet' };

// A small padlock, closed or open.
function lockIcon(closed) {
  return svg('svg', { class: 'icon', viewBox: '0 0 12 14', width: 11, height: 13, 'aria-hidden': 'true' },
    svg('path', { d: closed ? 'M3 6V4a3 3 0 0 1 6 0v2' : 'M3 6V4a3 3 0 0 1 6 0', fill: 'none', stroke: 'currentColor', 'stroke-width': 1.6 }),
    svg('rect', { x: 1, y: 6, width: 10, height: 7.5, rx: 1.5, fill: 'currentColor' }));
}

function colorOf(app) {
  if (!state.colors.has(app)) state.colors.set(app, COLORS[state.colors.size % COLORS.length]);
  return state.colors.get(app);
}

function clock(iso) {
  const date = typeof iso === 'number' ? new Date(iso * 1000) : new Date(iso);
  return isNaN(date) ? '' : date.toLocaleTimeString([], { hour12: false });
}

// What the host answered: an error member when it could not be reached or refused the page.
async function api(path, body) {
  let response;
  try {
    response = await fetch(path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'Authorization': 'Bearer ' + token, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    return { error: 'intentd cannot be reached; it may be stopped or restarting' };
  }
  if (response.status === 401) return { error: TOKEN_REFUSED };
  let answer = null;
  try { answer = await response.json(); } catch (e) { answer = { error: response.statusText || 'no answer' }; }
  if (!response.ok && !answer.error) answer.error = response.statusText;
  return answer;
}

// ---- live connection -----------------------------------------------------------------

function connect() {
  const scheme = location.protocol === 'https:' ? 'wss://' : 'ws://';
  const socket = new WebSocket(scheme + location.host + '/ws?token=' + encodeURIComponent(token));
  socket.onopen = () => { state.tokenRefused = false; setConnection(true); };
  socket.onclose = async () => {
    setConnection(false);
    lockUnknown();
    setTimeout(connect, 1000);
    // A host that answers but refuses the token will not take this page back: say so.
    const answer = await api('/api/state');
    state.tokenRefused = answer.error === TOKEN_REFUSED;
    if (state.tokenRefused) setConnection(false);
  };
  socket.onmessage = (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch (e) { return; }
    receive(message);
  };
}

// Live, or not: then every app card is dimmed and its controls off, as it was last seen.
function setConnection(live) {
  const node = document.getElementById('connection');
  node.className = 'connection ' + (live ? 'live' : 'offline');
  node.textContent = live ? 'live' : state.tokenRefused ? TOKEN_REFUSED : 'reconnecting… (apps as last seen)';
  document.body.classList.toggle('offline', !live);
  document.getElementById('apps').inert = !live;
}

function receive(message) {
  switch (message.type) {
    case 'snapshot': {
      const s = message.snapshot || {};
      showStatus(s.status, s.error);
      state.traffic = s.traffic || [];
      renderTraffic();
      (s.updates || []).forEach((u) => addUpdate(u, false));
      redraw(renderUpdates);
      showBench(s.bench);
      break;
    }
    case 'status': showStatus(message.status, message.error); break;
    case 'traffic':
      state.traffic.push(...(message.traffic || []));
      if (state.traffic.length > 120) state.traffic.splice(0, state.traffic.length - 120);
      renderTraffic();
      break;
    case 'update': (message.updates || []).forEach((u) => addUpdate(u, true)); redraw(renderUpdates); break;
    case 'bench': showBench(message.bench); break;
  }
}

// ---- apps and lock -------------------------------------------------------------------

function showStatus(status, error) {
  if (!status) {
    document.getElementById('host-info').textContent = error ? 'host not answering: ' + error : '';
    lockUnknown();
    return;
  }
  state.status = status;
  state.locked = !!status.locked;
  const info = [];
  if (status.processIdentifier) info.push('intentd pid ' + status.processIdentifier);
  const registered = status.extensions.length, away = unregistered(status).size;
  info.push(registered + (registered === 1 ? ' app' : ' apps') + (away ? ', ' + away + ' not registered' : ''));
  document.getElementById('host-info').textContent = info.join(' · ');
  const lock = document.getElementById('lock');
  lock.disabled = false;
  lock.className = 'lock ' + (state.locked ? 'locked' : 'unlocked');
  lock.replaceChildren(lockIcon(state.locked), state.locked ? 'Locked · unlock' : 'Unlocked · lock');
  lock.setAttribute('data-locked', String(state.locked));
  // Unlocked elsewhere (intentctl unlock) while the conversation waits: only continuing is left.
  const unlock = document.querySelector('#choices [data-unlock]');
  if (unlock) unlock.textContent = state.locked ? 'Unlock and continue' : 'Continue';
  renderApps(status);
}

// Drawn again only when something shown changed: a card drawn every second would take the
// keyboard's focus, and an open question, away from the operator.
function renderApps(status) {
  const shown = JSON.stringify([status.extensions, status.launches, status.rejected, state.locked]);
  if (shown === state.appsShown) return;
  state.appsShown = shown;
  const launches = status.launches || [];
  const named = status.extensions.map((app) => [app.appName, appCard(app, launches.filter((l) => l.appName === app.appName))]);
  for (const [name, list] of unregistered(status)) named.push([name, unregisteredCard(name, list)]);
  // By name, so an app keeps its place while it restarts.
  const cards = named.sort((a, b) => a[0].localeCompare(b[0])).map((pair) => pair[1]);
  if (cards.length === 0) cards.push(el('p', { class: 'muted' }, 'No app has registered yet.'));
  replace('apps', cards);
  const rejected = (status.rejected || []).slice(-5).map((r) =>
    el('div', {}, clock(r.time) + ' refused ' + r.appName + ' (' + r.bundleIdentifier + '): ' + r.reason));
  replace('rejected', rejected.length ? el('div', { class: 'rejections' }, el('strong', {}, 'Refused registrations'), rejected) : null);
}

// Launched extensions that are not registered (restarting, rejected, failed), by app name.
function unregistered(status) {
  const registered = new Set(status.extensions.map((a) => a.appName));
  const groups = new Map();
  for (const l of status.launches || []) {
    if (!registered.has(l.appName)) groups.set(l.appName, (groups.get(l.appName) || []).concat([l]));
  }
  return groups;
}

function health(launches) {
  if (launches.length === 0) return [['started outside the host', 'warn']];
  return launches.map((l) => {
    switch (l.state) {
      case 'running': return ['running' + (l.restarts ? ', ' + l.restarts + (l.restarts === 1 ? ' restart' : ' restarts') : ''), 'ok'];
      case 'restarting': return ['restarting' + (l.restartInSeconds != null ? ' in ' + l.restartInSeconds.toFixed(0) + ' s' : ''), 'warn'];
      case 'crashLooping': return ['crash-looping', 'bad'];
      case 'unhealthy': return ['unhealthy', 'bad'];
      default: return [l.state, 'bad'];
    }
  });
}

function appCard(app, launches) {
  const restricted = new Set(app.intentsRestrictedWhileLocked || []);
  const authorization = app.authorization || 'notDetermined';
  const authClass = { authorized: 'ok', denied: 'bad', restricted: 'bad' }[authorization] || 'warn';
  const decisions = authorizationControl(app.appName, authorization);
  const sandboxes = (app.sandboxes || []).map((s) => {
    const parts = [s.state === 'on' ? 'sandboxed' : s.state === 'off' ? 'no sandbox' : 'outside the host'];
    if (s.state !== 'outside') parts.push(s.network ? 'network' : 'no network');
    (s.limits || []).forEach((l) => parts.push(l.resource + ' ' + l.value + (l.unit ? ' ' + l.unit : '') + ' (' + l.enforcedBy + ')'));
    return el('div', { class: 'small' }, parts.join(' · '));
  });
  return el('article', { class: 'app', 'data-app': app.appName },
    el('h3', {}, app.appName, el('span', { class: 'badge ' + authClass, 'data-authorization': authorization }, AUTHORIZATION[authorization] || authorization)),
    el('div', { class: 'bundle mono' }, app.bundleIdentifier + (app.trusted === false ? ' · key no longer trusted' : '')),
    el('div', { class: 'row' }, el('span', { class: 'label' }, 'Health'),
      health(launches).map(([text, kind]) => el('span', { class: 'badge ' + kind }, text))),
    el('div', { class: 'row' }, el('span', { class: 'label' }, 'Instances'),
      String(app.instances) + (app.processIdentifiers.length ? ' (pid ' + app.processIdentifiers.join(', ') + ')' : '')),
    el('div', { class: 'row' }, el('span', { class: 'label' }, 'Sandbox'), el('div', {}, sandboxes.length ? sandboxes : '—')),
    el('div', { class: 'row' }, el('span', { class: 'label' }, 'Authorization'), decisions),
    el('div', { class: 'row' }, el('span', { class: 'label' }, 'Intents'),
      el('div', { class: 'chips' }, app.intentsSupported.map((name) => {
        const locked = restricted.has(name);
        const cls = 'chip' + (locked ? ' restricted' : '') + (locked && state.locked ? ' refused' : '');
        return el('span', { class: cls, 'data-intent': name, title: locked ? 'restricted while the device is locked' : '' },
          locked ? lockIcon(true) : null, name);
      }))));
}

// Allow, deny or ask again, each a button of its own (a drop-down decided on a key press);
// "ask again" forgets the app's vocabulary, so it asks first.
function authorizationControl(appName, authorization) {
  // Not asked yet is no decision: no button is the current one.
  const current = { authorized: 'allow', denied: 'deny' }[authorization];
  const group = el('div', { class: 'decisions', role: 'group', 'aria-label': 'authorization of ' + appName, 'data-authorize': appName });
  const decide = async (decision) => {
    const answer = await api('/api/authorize', { app: appName, decision });
    if (answer.error) note('Could not change ' + appName + ': ' + answer.error);
  };
  const button = (decision, label, onclick) => el('button', {
    type: 'button', 'data-decision': decision, 'aria-pressed': String(decision === current), onclick,
  }, label);
  const buttons = [
    button('allow', 'Allow', () => decide('allow')),
    button('deny', 'Deny', () => decide('deny')),
    button('reset', 'Ask again', () => group.replaceChildren(
      el('span', { class: 'small' }, 'Ask again, and forget the names ' + appName + ' taught the assistant?'),
      el('button', { type: 'button', 'data-decision': 'reset-confirmed', onclick: () => decide('reset') }, 'Forget and ask again'),
      el('button', { type: 'button', onclick: () => group.replaceChildren(...buttons) }, 'Keep'))),
  ];
  group.append(...buttons);
  return group;
}

function unregisteredCard(name, launches) {
  const last = launches[0] || {};
  return el('article', { class: 'app', 'data-app': name },
    el('h3', {}, name, el('span', { class: 'badge bad' }, 'not registered')),
    el('div', { class: 'bundle mono' }, last.bundleIdentifier || ''),
    el('div', { class: 'row' }, el('span', { class: 'label' }, 'Health'),
      health(launches).map(([text, kind]) => el('span', { class: 'badge ' + kind }, text))),
    last.lastExit ? el('div', { class: 'small muted' }, 'last exit: ' + last.lastExit) : null,
    last.lastError ? el('div', { class: 'small muted' }, 'last line: ' + last.lastError) : null);
}

// When the page cannot know the lock state, it offers no toggle (it could invert it wrongly).
function lockUnknown() {
  state.locked = null;
  const lock = document.getElementById('lock');
  lock.disabled = true;
  lock.className = 'lock unknown';
  lock.replaceChildren('lock state unknown');
  lock.removeAttribute('data-locked');
}

async function toggleLock() {
  if (state.locked === null) return;
  const answer = await api('/api/lock', { locked: !state.locked });
  if (answer.error) note('The lock was not changed: ' + answer.error);
  else if (state.status) { state.status.locked = answer.locked; showStatus(state.status); }
}

// ---- conversation --------------------------------------------------------------------

function addTurn(kind, text, who, extra) {
  const transcript = document.getElementById('transcript');
  transcript.querySelectorAll('.hint').forEach((n) => n.remove());
  const node = el('div', { class: 'turn ' + kind + (extra ? ' ' + extra : '') }, who ? el('span', { class: 'who' }, who) : null, text);
  transcript.append(node);
  while (transcript.childElementCount > LIMITS.turns) transcript.firstElementChild.remove();
  transcript.scrollTop = transcript.scrollHeight;
  return node;
}

function note(text) { addTurn('note', text); }

// Says `text` (`typed` in the box, not a button's answer, so it goes back there if it is
// not taken).
async function say(text, typed) {
  text = text.trim();
  if (!text || state.busy) return;
  state.busy = true;
  addTurn('user', text);
  replace('choices');
  clearTimeout(state.expiry);
  const utterance = { text };
  if (state.session) utterance.sessionId = state.session;
  const turn = await api('/api/say', utterance);
  state.busy = false;
  if (turn.error) {
    note(turn.code === 'unknownSession'
      ? 'intentd no longer knows what we were talking about (it was restarted), so nothing was done. Say the request again.'
      : turn.code ? 'intentd: ' + turn.error : 'The host did not answer: ' + turn.error);
    state.session = null;
    const input = document.getElementById('utterance');
    if (typed && !input.value) input.value = text;
    return;
  }
  state.session = turn.expecting ? turn.sessionId : null;
  addTurn('host', turn.text, turn.app || 'intentd', turn.end || 'asking');
  showChoices(turn);
  if (state.session && typeof turn.answerWithinSeconds === 'number') expireAfter(turn.answerWithinSeconds, state.session);
}

// The host waits so long for an answer, then ends the conversation with nothing done: say
// so then, and take the next line as a new request.
function expireAfter(seconds, session) {
  state.deadline = Date.now() + seconds * 1000;
  state.waits = seconds;
  const expire = () => {
    if (state.session !== session || state.busy) return;
    // A typing note still on its way may have made the wait longer: its answer says.
    if (state.typing) { state.expiry = setTimeout(expire, 1000); return; }
    state.session = null;
    replace('choices');
    note('No answer within ' + Math.round(seconds) + ' s: intentd stopped waiting, so nothing was done. Say the request again.');
  };
  // setTimeout fires at once past about 24 days: a day is as long as any page waits.
  state.expiry = setTimeout(expire, Math.min(seconds, 86400) * 1000);
}

// Typing an answer as its time runs out (under 10 s, or half the wait, left): the host is
// told, at most once a second, and the question waits its time again from then.
function keepWaiting() {
  const session = state.session;
  if (!session || state.busy || state.typing || !state.deadline) return;
  const now = Date.now();
  if (state.deadline - now > Math.min(10, state.waits / 2) * 1000 || now - (state.typedAt || 0) < 1000) return;
  state.typing = true;
  state.typedAt = now;
  api('/api/say', { text: '', sessionId: session, typing: true }).then((turn) => {
    state.typing = false;
    if (turn.error || turn.end || state.session !== session || state.busy || typeof turn.answerWithinSeconds !== 'number') return;
    clearTimeout(state.expiry);
    expireAfter(turn.answerWithinSeconds, session);
  });
}

function showChoices(turn) {
  const buttons = [];
  const pick = (label, text) => el('button', { type: 'button', onclick: () => { say(text); document.getElementById('utterance').focus(); } }, label);
  if (turn.expecting === 'choice') (turn.options || []).forEach((option) => buttons.push(pick(option, option)));
  if (turn.expecting === 'yesNo') buttons.push(pick('Yes', 'yes'), pick('No', 'no'));
  if (turn.expecting === 'unlock') {
    buttons.push(el('button', { type: 'button', 'data-unlock': '', onclick: async () => {
      const answer = state.locked === false ? {} : await api('/api/lock', { locked: false });
      if (answer.error) note('Could not unlock: ' + answer.error); else say('done');
    } }, state.locked === false ? 'Continue' : 'Unlock and continue'));
  }
  if (turn.expecting) buttons.push(pick('Cancel', 'cancel'));
  replace('choices', buttons);
}

// ---- pushed updates and the ride map ---------------------------------------------------

function addUpdate(update, live) {
  state.updates.push(update);
  if (state.updates.length > 50) state.updates.shift();
  const payload = update.payload || {};
  if (update.topic === 'ride' && payload && typeof payload === 'object') showRide(payload, update.app);
  if (live) noteUpdate(update.app + ' · ' + update.topic, summaryOf(payload));
}

// An update in the transcript: one that follows another of the same app and topic takes
// its place, so a stream of them (a ride's progress, or a flood) stays one line.
function noteUpdate(source, summary) {
  const transcript = document.getElementById('transcript');
  const last = transcript.lastElementChild;
  if (last && last.dataset.update === source) {
    // The line may grow: a transcript read at its end stays at its end.
    const atEnd = transcript.scrollTop + transcript.clientHeight >= transcript.scrollHeight - 4;
    last.textContent = source + ': ' + summary;
    if (atEnd) transcript.scrollTop = transcript.scrollHeight;
  } else {
    addTurn('note', source + ': ' + summary).dataset.update = source;
  }
}

function summaryOf(payload) {
  return brief(typeof payload.summary === 'string' ? payload.summary : JSON.stringify(payload));
}

function renderUpdates() {
  const items = state.updates.slice().reverse().map((u) => {
    const summary = summaryOf(u.payload || {});
    return el('li', {}, el('span', { class: 'time' }, clock(u.time)), el('span', { class: 'update-app' }, u.app), u.topic + ': ' + summary);
  });
  replace('updates', items.length ? items : el('li', { class: 'muted' }, 'None yet.'));
}

function place(value) {
  return value && typeof value.latitude === 'number' && typeof value.longitude === 'number' ? value : null;
}

// A ride as an app sent it: the panel names the app (the host's name for the sender, not
// anything the payload says), so no other app can pass its rides off as Zippy's.
function showRide(ride, app) {
  if (!state.ride || state.ride.rideIdentifier !== ride.rideIdentifier || state.rideApp !== app) state.trail = [];
  state.ride = ride;
  state.rideApp = app;
  const car = place(ride.vehicleLocation);
  const last = state.trail[state.trail.length - 1];
  if (car && (!last || last.latitude !== car.latitude || last.longitude !== car.longitude)) state.trail.push(car);
  // An extension may send positions for as long as it likes: keep the latest few hundred.
  if (state.trail.length > 500) state.trail.splice(0, state.trail.length - 500);
  redraw(renderMap);
}

function bounds() {
  const points = [];
  const collect = (c) => { if (typeof c[0] === 'number') points.push(c); else c.forEach(collect); };
  (state.coverage && state.coverage.features || []).forEach((f) => f.geometry && collect(f.geometry.coordinates || []));
  const ride = state.ride;
  if (ride) [ride.pickupLocation, ride.dropOffLocation, ride.vehicleLocation].map(place).filter(Boolean)
    .forEach((p) => points.push([p.longitude, p.latitude]));
  if (points.length === 0) return null;
  const lons = points.map((p) => p[0]), lats = points.map((p) => p[1]);
  return { minLon: Math.min(...lons), maxLon: Math.max(...lons), minLat: Math.min(...lats), maxLat: Math.max(...lats) };
}

function projection(b, width, height, margin) {
  const k = Math.cos(((b.minLat + b.maxLat) / 2) * Math.PI / 180);
  const w = Math.max((b.maxLon - b.minLon) * k, 1e-6), h = Math.max(b.maxLat - b.minLat, 1e-6);
  const scale = Math.min((width - 2 * margin) / w, (height - 2 * margin) / h);
  const ox = (width - w * scale) / 2, oy = (height - h * scale) / 2;
  return (lon, lat) => [ox + (lon - b.minLon) * k * scale, oy + (b.maxLat - lat) * scale];
}

function renderMap() {
  const map = document.getElementById('map');
  const width = 420, height = 360;
  const b = bounds();
  map.replaceChildren();
  if (!b) { map.append(svg('text', { x: 20, y: 30, class: 'caption' }, 'No coverage map.')); return; }
  const at = projection(b, width, height, 16);
  for (let i = 1; i < 6; i++) {
    map.append(svg('line', { x1: 0, x2: width, y1: i * height / 6, y2: i * height / 6, class: 'grid' }));
    map.append(svg('line', { y1: 0, y2: height, x1: i * width / 6, x2: i * width / 6, class: 'grid' }));
  }
  const label = labeller(map, width, height);
  (state.coverage && state.coverage.features || []).forEach((feature) => {
    const g = feature.geometry || {};
    const polygons = g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
    polygons.forEach((rings) => (rings || []).forEach((ring) => {
      const points = ring.map((c) => at(c[0], c[1]).map((v) => v.toFixed(1)).join(',')).join(' ');
      map.append(svg('polygon', { points, class: 'area' }));
    }));
    const name = feature.properties && feature.properties.name;
    if (typeof name === 'string') {
      map.append(svg('text', { x: 14, y: height - 12, class: 'caption' }, name));
      label.reserve({ x: 14, y: height - 26, w: name.length * 12 * 0.58, h: 16 });
    }
  });
  const named = new Set(state.ride ? [state.ride.pickupLocation, state.ride.dropOffLocation].map((p) => p && p.name) : []);
  // The ride's markers are drawn over the landmarks: no landmark's name goes under them.
  if (state.ride) {
    for (const [spot, r] of [[state.ride.pickupLocation, 8], [state.ride.dropOffLocation, 8], [state.ride.vehicleLocation, 10]]) {
      if (!place(spot)) continue;
      const [x, y] = at(spot.longitude, spot.latitude);
      label.reserve({ x: x - r, y: y - r, w: 2 * r, h: 2 * r });
    }
  }
  for (const spot of state.places.filter((p) => !named.has(p.name))) {
    const [x, y] = at(spot.longitude, spot.latitude);
    map.append(svg('circle', { cx: x, cy: y, r: 3.5, class: 'landmark' }));
    label(x, y, 7, String(spot.name), { class: 'landmark-name' }, 10);
  }
  const ride = state.ride;
  const phase = document.getElementById('ride-phase');
  if (!ride) { phase.textContent = 'no ride'; return; }
  phase.textContent = RIDE_PHASES[ride.phase] || String(ride.phase || '').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  phase.className = 'badge ' + (ride.phase === 'cancelled' ? 'bad' : ride.phase === 'completed' ? 'ok' : 'warn');
  const summary = typeof ride.summary === 'string' ? brief(ride.summary) : '';
  document.getElementById('ride-summary').textContent = (state.rideApp ? state.rideApp + ': ' : '') + summary;
  const pickup = place(ride.pickupLocation), dropOff = place(ride.dropOffLocation), car = place(ride.vehicleLocation);
  if (pickup && dropOff) {
    const [x1, y1] = at(pickup.longitude, pickup.latitude), [x2, y2] = at(dropOff.longitude, dropOff.latitude);
    map.append(svg('line', { x1, y1, x2, y2, class: 'route' }));
  }
  if (state.trail.length > 1) {
    const points = state.trail.map((p) => at(p.longitude, p.latitude).map((v) => v.toFixed(1)).join(',')).join(' ');
    map.append(svg('polyline', { points, class: 'trail' }));
  }
  for (const [spot, cls] of [[pickup, 'pickup'], [dropOff, 'dropoff']]) {
    if (!spot) continue;
    const [x, y] = at(spot.longitude, spot.latitude);
    map.append(svg('circle', { cx: x, cy: y, r: 6, class: cls }));
    label(x, y, 10, String(spot.name || cls), {}, 12);
  }
  if (car) {
    const [x, y] = at(car.longitude, car.latitude);
    map.append(svg('circle', {
      id: 'car', cx: x.toFixed(1), cy: y.toFixed(1), r: 8, class: 'car',
      'data-latitude': car.latitude, 'data-longitude': car.longitude,
    }, svg('title', {}, 'the car')));
    const eta = ride.estimatedPickupSeconds != null ? ', pickup in ' + ride.estimatedPickupSeconds + ' s' : '';
    label(x, y, 12, 'car' + eta, { class: 'car-label' }, 12);
  }
}

// Places each label beside its point where it covers no label placed before: right, left,
// above or below, else right anyway. Sizes are estimated from the font size.
function labeller(map, width, height) {
  const placed = [];
  const overlaps = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
  const label = (x, y, gap, text, attrs, size) => {
    const w = text.length * size * 0.58, h = size + 2;
    const spots = [
      { x: x + gap, y: y - h / 2, anchor: 'start' }, { x: x - gap - w, y: y - h / 2, anchor: 'end' },
      { x: x - w / 2, y: y - gap - h, anchor: 'middle' }, { x: x - w / 2, y: y + gap, anchor: 'middle' },
    ];
    const fits = (s) => s.x >= 0 && s.x + w <= width && s.y >= 0 && s.y + h <= height;
    const spot = spots.find((s) => fits(s) && !placed.some((p) => overlaps(p, { ...s, w, h }))) || spots[0];
    placed.push({ x: spot.x, y: spot.y, w, h });
    const tx = spot.anchor === 'start' ? spot.x : spot.anchor === 'end' ? spot.x + w : spot.x + w / 2;
    map.append(svg('text', { ...attrs, x: tx.toFixed(1), y: (spot.y + h - 3).toFixed(1), 'text-anchor': spot.anchor }, text));
  };
  // A box (a marker, a caption) no label may cover.
  label.reserve = (box) => placed.push(box);
  return label;
}

// ---- traffic charts --------------------------------------------------------------------

function lineChart(id, series, unit) {
  const chart = document.getElementById(id);
  const width = 520, height = 200, left = 44, right = 10, top = 10, bottom = 22;
  chart.replaceChildren();
  const now = Date.now() / 1000, span = 120;
  let max = 0;
  series.forEach((s) => s.points.forEach((p) => { if (p[1] > max) max = p[1]; }));
  max = niceMax(max);
  const x = (t) => left + (1 - Math.min(span, now - t) / span) * (width - left - right);
  const y = (v) => top + (1 - v / max) * (height - top - bottom);
  const steps = divisions(max);
  for (let i = 0; i <= steps; i++) {
    const v = (max * i) / steps;
    chart.append(svg('line', { x1: left, x2: width - right, y1: y(v), y2: y(v), class: 'axis' }));
    chart.append(svg('text', { x: left - 6, y: y(v) + 4, 'text-anchor': 'end' }, fmt(v)));
  }
  [120, 90, 60, 30, 0].forEach((ago) => chart.append(
    svg('text', { x: x(now - ago), y: height - 6, 'text-anchor': 'middle' }, ago === 0 ? 'now' : '-' + ago + ' s')));
  series.forEach((s) => {
    const points = s.points.filter((p) => now - p[0] <= span);
    if (points.length === 0) return;
    // Seconds with no sample are no line drawn across them: a rate falls to zero there,
    // a latency breaks off.
    for (const run of runs(points, s.zeroInGaps)) {
      // A second alone (one request a while after the last) is a dot: a line of one point is not drawn.
      if (run.length === 1) {
        chart.append(svg('circle', {
          class: 'sample', cx: x(run[0][0]).toFixed(1), cy: y(run[0][1]).toFixed(1), r: 2.5, fill: colorOf(s.app), 'data-app': s.app,
        }));
        continue;
      }
      chart.append(svg('polyline', {
        class: 'series', stroke: colorOf(s.app), 'data-app': s.app,
        points: run.map((p) => x(p[0]).toFixed(1) + ',' + y(p[1]).toFixed(1)).join(' '),
      }));
    }
    const lastPoint = points[points.length - 1];
    chart.append(svg('circle', { cx: x(lastPoint[0]).toFixed(1), cy: y(lastPoint[1]).toFixed(1), r: 3, fill: colorOf(s.app) }));
  });
  if (series.length === 0) chart.append(svg('text', { x: width / 2, y: height / 2, 'text-anchor': 'middle' }, 'no ' + unit + ' yet'));
}

// Points split where more than a few seconds pass between samples; with zeroInGaps each
// run also falls to zero a second after its last sample and rises from zero a second before
// its first.
function runs(points, zeroInGaps) {
  const gap = 3, split = [];
  for (const p of points) {
    const run = split[split.length - 1];
    if (run && p[0] - run[run.length - 1][0] <= gap) run.push(p); else split.push([p]);
  }
  if (!zeroInGaps) return split;
  return split.map((run, i) => [
    ...(i > 0 ? [[run[0][0] - 1, 0]] : []), ...run, ...(i < split.length - 1 ? [[run[run.length - 1][0] + 1, 0]] : []),
  ]);
}

function niceMax(v) {
  if (v <= 0) return 1;
  const p = Math.pow(10, Math.floor(Math.log10(v)));
  return [1, 2, 2.5, 5, 10].map((m) => m * p).find((m) => m >= v);
}

// How many gridlines divide 0…max into round steps (max comes from niceMax).
function divisions(max) {
  const m = max / Math.pow(10, Math.floor(Math.log10(max)));
  return m === 2 ? 4 : m === 1 ? 4 : 5;
}

function fmt(v) { return Number.isInteger(v) ? String(v) : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2).replace(/\.?0+$/, '') || '0'; }

function renderTraffic() {
  const apps = new Map();
  for (const sample of state.traffic) {
    for (const a of sample.apps || []) {
      if (!apps.has(a.app)) apps.set(a.app, { rate: [], latency: [] });
      apps.get(a.app).rate.push([sample.time, a.perSecond]);
      if (a.meanMilliseconds != null) apps.get(a.app).latency.push([sample.time, a.meanMilliseconds]);
    }
  }
  const names = [...apps.keys()].sort();
  lineChart('throughput', names.map((app) => ({ app, points: apps.get(app).rate, zeroInGaps: true })), 'traffic');
  lineChart('latency', names.map((app) => ({ app, points: apps.get(app).latency })).filter((s) => s.points.length), 'latency');
  replace('legend', names.map((app) => el('span', {}, el('span', { class: 'swatch', style: null, 'data-color': colorOf(app) }), app)));
  document.querySelectorAll('#legend .swatch').forEach((n) => { n.style.background = n.getAttribute('data-color'); });
}

// ---- the last load test ----------------------------------------------------------------

function showBench(bench) {
  if (!bench || typeof bench !== 'object' || !bench.summary) return;
  state.bench = bench;
  const s = bench.summary, l = s.latencyMicroseconds || {};
  const us = (v) => (typeof v === 'number' ? (v >= 1000 ? (v / 1000).toFixed(2) + ' ms' : v + ' µs') : '—');
  const rows = [
    ['when', bench.time ? new Date(bench.time).toLocaleString() : '—'],
    ['mode', s.mode + (bench.transport ? ' over ' + bench.transport : '')], ['load', s.load],
    ['mix', (s.mix || []).join(', ')], ['completed', s.completed + ' of ' + s.sent],
    ['throughput', Math.round(s.requestsPerSecond) + ' /s'], ['errors', Object.values(s.errors || {}).reduce((a, b) => a + b, 0)],
    ['overloaded', s.overloaded], ['p50', us(l.p50)], ['p90', us(l.p90)], ['p99', us(l.p99)], ['p99.9', us(l['p99.9'])], ['max', us(l.max)],
  ];
  const table = el('table', { id: 'bench-table' }, rows.map(([k, v]) => el('tr', {}, el('td', {}, k), el('td', {}, String(v)))));
  const chart = svg('svg', { id: 'bench-chart', class: 'chart', viewBox: '0 0 640 260' });
  replace('bench', table, el('figure', {}, el('figcaption', {}, 'Latency by percentile'), chart));
  percentileChart(chart, Array.isArray(bench.curve) ? bench.curve : []);
}

function percentileChart(chart, curve) {
  const width = 640, height = 260, left = 60, right = 30, top = 12, bottom = 30;
  const points = curve.filter((p) => typeof p.percentile === 'number' && typeof p.microseconds === 'number' && p.percentile < 100);
  const px = (p) => Math.log10(1 / Math.max(1e-5, 1 - p / 100));
  const maxX = Math.max(3, ...points.map((p) => px(p.percentile)));
  const maxY = niceMax(Math.max(0, ...points.map((p) => p.microseconds / 1000)));
  const x = (p) => left + (px(p) / maxX) * (width - left - right);
  const y = (ms) => top + (1 - ms / maxY) * (height - top - bottom);
  const steps = divisions(maxY);
  for (let i = 0; i <= steps; i++) {
    const v = (maxY * i) / steps;
    chart.append(svg('line', { x1: left, x2: width - right, y1: y(v), y2: y(v), class: 'axis' }));
    chart.append(svg('text', { x: left - 6, y: y(v) + 4, 'text-anchor': 'end' }, fmt(v) + ' ms'));
  }
  [0, 90, 99, 99.9, 99.99, 99.999].filter((p) => px(p) <= maxX + 1e-9).forEach((p) => {
    chart.append(svg('line', { x1: x(p), x2: x(p), y1: top, y2: height - bottom, class: 'axis' }));
    chart.append(svg('text', { x: x(p), y: height - 10, 'text-anchor': 'middle' }, p + '%'));
  });
  if (points.length) {
    chart.append(svg('polyline', {
      class: 'series', stroke: '#2f6fdf',
      points: points.map((p) => x(p.percentile).toFixed(1) + ',' + y(p.microseconds / 1000).toFixed(1)).join(' '),
    }));
  }
}

// ---- start -----------------------------------------------------------------------------

document.addEventListener('DOMContentLoaded', async () => {
  document.getElementById('lock').addEventListener('click', toggleLock);
  // The box takes 1,000 characters: a paste past that is cut by the browser, so say so.
  const box = document.getElementById('utterance');
  let full = false;
  box.addEventListener('input', () => {
    if (box.value.length >= box.maxLength && !full) note('The box holds at most ' + box.maxLength + ' characters; the rest was not taken.');
    full = box.value.length >= box.maxLength;
    if (box.value) keepWaiting();
  });
  document.getElementById('say').addEventListener('submit', (event) => {
    event.preventDefault();
    const input = document.getElementById('utterance');
    if (state.busy) { note('Still waiting for the answer to the last request; what you typed is kept.'); return; }
    const text = input.value;
    input.value = '';
    say(text, true);
  });
  try {
    const response = await fetch('/coverage.geojson?token=' + encodeURIComponent(token));
    if (response.ok) state.coverage = await response.json();
  } catch (e) { /* drawn without the area */ }
  try {
    const response = await fetch('/places.json?token=' + encodeURIComponent(token));
    if (response.ok) {
      const known = await response.json();
      state.places = [known.currentLocation].concat(known.places || []).map(place).filter(Boolean).slice(0, 50);
    }
  } catch (e) { /* drawn without landmarks */ }
  renderMap();
  renderTraffic();
  connect();
});
