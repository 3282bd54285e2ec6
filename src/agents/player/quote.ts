/**
 * Player speech reaches a model only as quoted data: angle brackets are swapped so no
 * text can close the tag it sits in, and the tag says whose words they are.
 */
export function quoteSpeech(speaker: string, text: string): string {
  return `<speech player="${neutralise(speaker)}">${neutralise(text)}</speech>`;
}

export function neutralise(text: string): string {
  return text.replace(/</g, '‹').replace(/>/g, '›').replace(/"/g, '″');
}
