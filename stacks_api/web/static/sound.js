// Optional sound (off unless the player turns it on): a short tone when it becomes
// your turn, a softer one when a chip or card lands.
const KEY = "stacks:sound";
let context = null;

export function soundOn() {
  return localStorage.getItem(KEY) === "on";
}

export function setSound(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
}

export function chime(kind) {
  if (!soundOn()) return;
  try {
    context = context || new AudioContext();
    const tone = context.createOscillator();
    const level = context.createGain();
    tone.frequency.value = kind === "turn" ? 660 : 440;
    level.gain.setValueAtTime(kind === "turn" ? 0.15 : 0.06, context.currentTime);
    level.gain.exponentialRampToValueAtTime(0.001, context.currentTime + 0.25);
    tone.connect(level).connect(context.destination);
    tone.start();
    tone.stop(context.currentTime + 0.25);
  } catch {
    // no audio here: the game goes on silently
  }
}
