/**
 * What the simulated policy knows about one pitfall when it reads a lesson, in notions of its lexicon (upper case)
 * or plain stemmed words. A cue is a space-separated list of notions that must occur near each other in one sentence;
 * its first notion is the verb whose negation decides the cue's sign ("EXCLUDE ENDPOINT": "never exclude the
 * endpoints" flips it). The policy's own knowledge: no other simulated role may import it.
 */
export interface LessonReadingSpec {
  /** Notions that name the trap's subject: a lesson naming one without an action is vague. */
  topic: readonly string[];
  /** Notions of the broader situation: an action cue needs the topic or the context to apply. */
  context: readonly string[];
  /** Cues of the action that avoids the trap. */
  helpful: readonly string[];
  /** Cues of the action that falls into it. */
  harmful: readonly string[];
}
