// Small feeds in the shapes real publishers send.
export const RSS2 = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel>
    <title>Example blog</title>
    <link>https://blog.example.org/</link>
    <item>
      <title>Older &amp; wiser</title>
      <link>https://blog.example.org/older</link>
      <description>&lt;p&gt;Short summary&lt;/p&gt;</description>
      <pubDate>Mon, 02 Mar 2026 08:00:00 GMT</pubDate>
      <author>editor@example.org (Ed Itor)</author>
      <guid isPermaLink="false">tag:blog.example.org,2026:older</guid>
    </item>
    <item>
      <title>2026</title>
      <link>https://blog.example.org/newest</link>
      <description>Summary only</description>
      <content:encoded><![CDATA[<p>Full <b>content</b> here</p>]]></content:encoded>
      <pubDate>Tue, 03 Mar 2026 09:30:00 +0100</pubDate>
      <dc:creator>Ann Author</dc:creator>
      <guid>https://blog.example.org/newest</guid>
    </item>
    <item>
      <title>No date, no guid</title>
      <link>https://blog.example.org/undated</link>
      <description>x</description>
    </item>
  </channel>
</rss>`;

export const ATOM = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Example Atom</title>
  <id>urn:uuid:feed</id>
  <updated>2026-03-05T12:00:00Z</updated>
  <entry>
    <title type="html">First &lt;em&gt;entry&lt;/em&gt;</title>
    <link rel="self" href="https://atom.example.org/api/1"/>
    <link rel="alternate" type="text/html" href="/posts/first"/>
    <id>urn:uuid:entry-1</id>
    <published>2026-03-01T10:00:00Z</published>
    <updated>2026-03-02T10:00:00Z</updated>
    <summary>Summary one</summary>
    <author><name>Zed Writer</name></author>
  </entry>
  <entry>
    <title>Second entry</title>
    <link href="https://atom.example.org/posts/second"/>
    <id>urn:uuid:entry-2</id>
    <updated>2026-03-04T10:00:00+02:00</updated>
    <summary>Summary two</summary>
    <content type="html">&lt;p&gt;Body two&lt;/p&gt;</content>
  </entry>
</feed>`;
