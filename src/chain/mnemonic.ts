// A mnemonic given on the command line, checked as BIP-39 before any key is derived from it, so a
// mistyped word is named at start-up instead of failing deep inside the derivation.
import { validateMnemonic } from 'ethereum-cryptography/bip39/index.js';
import { wordlist } from 'ethereum-cryptography/bip39/wordlists/english.js';
import { nearest } from '../suggest.js';

const WORD_COUNTS = [12, 15, 18, 21, 24];

/** The words separated by single spaces, in lower case: how BIP-39 spells a mnemonic. */
export function normalizeMnemonic(mnemonic: string): string {
  return mnemonic.trim().toLowerCase().split(/\s+/).join(' ');
}

/** What is wrong with a (normalized) mnemonic, naming the word at fault; undefined when it is valid BIP-39. */
export function mnemonicProblem(mnemonic: string): string | undefined {
  const words = mnemonic === '' ? [] : mnemonic.split(' ');
  const known = new Set(wordlist);
  const unknown = words.findIndex((word) => !known.has(word));
  if (unknown !== -1) {
    const guess = nearest(words[unknown]!, wordlist);
    return `word ${unknown + 1}, ${JSON.stringify(words[unknown])}, is not in the BIP-39 English word list${guess === undefined ? '' : ` (did you mean ${JSON.stringify(guess)}?)`}`;
  }
  if (!WORD_COUNTS.includes(words.length)) return `it has ${words.length} words; a BIP-39 mnemonic has 12, 15, 18, 21 or 24`;
  if (!validateMnemonic(mnemonic, wordlist)) return `its checksum does not match (the last word carries it): check the order and spelling of the words`;
  return undefined;
}
