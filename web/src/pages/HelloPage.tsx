import { MSG } from '../spec/messages';

export default function HelloPage() {
  return <main><p>{MSG.hello}</p></main>;
}
