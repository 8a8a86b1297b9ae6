const userName: string = "ada";
const greetingText = `Hello ${userName}, hiddenTemplateText
function neverReached(argValue: number) {
  return argValue;
}
