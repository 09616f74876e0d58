// Request a demo: opens the visitor's mail program with the message filled in, to the
// deployment's contact address (site.contact_email, contactEmail in /config.json).
import { useState, type FormEvent } from 'react';
import { isValidEmail } from '../../spec/validation';

export function ContactForm({ address }: { address: string }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [message, setMessage] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = encodeURIComponent(`${message}\n\n${name} <${email}>`);
    window.location.href = `mailto:${encodeURIComponent(address).replace('%40', '@')}?subject=${encodeURIComponent('Demo request')}&body=${body}`;
  };
  return (
    <form className="contact-form card" onSubmit={submit}>
      <label className="field">
        <span className="field__label">Name</span>
        <input value={name} onChange={(e) => setName(e.target.value)} autoComplete="name" required />
      </label>
      <label className="field">
        <span className="field__label">Work email</span>
        <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" required />
      </label>
      <label className="field">
        <span className="field__label">What would you like to document?</span>
        <textarea rows={4} value={message} onChange={(e) => setMessage(e.target.value)} />
      </label>
      <button type="submit" className="button button--primary" disabled={!name.trim() || !isValidEmail(email)}>
        Request Demo
      </button>
    </form>
  );
}
