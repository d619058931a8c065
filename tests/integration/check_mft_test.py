#!/usr/bin/env python3
"""Unit test of check_mft.py's parsers and flood on captured output: twoswitch.ibnetdiscover.txt and
twoswitch.ibroute_M_empty.txt were captured from ibsim after OpenSM swept tests/fabrics/twoswitch.net (the
default IPoIB group has no members, hence no entries); twoswitch.ibroute_M_entries.txt is laid out as
ibroute.c prints entries (normal and -n brief), with one good group and one with a loop;
twoswitch.ibroute_M_smd.txt (normal and -n for each switch) and twoswitch.groups.txt were captured after
tests/integration/tools/mcast_program programmed 3 groups on that fabric.
sw-0 (0x200000): ports 1, 2 to sw-1 ports 1, 2; 3 host-0 (port 0x100001), 4 host-1 (0x100003).
sw-1 (0x200001): 3 host-2 (0x100005), 4 host-3 (0x100007)."""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_mft  # noqa: E402


def sample(name):
    with open(os.path.join(HERE, 'samples', name)) as f:
        return f.read()


class CheckMftTest(unittest.TestCase):
    def setUp(self):
        self.nodes = check_mft.parse_netdiscover(sample('twoswitch.ibnetdiscover.txt'))

    def test_netdiscover(self):
        self.assertEqual(len(self.nodes), 6)
        sw0 = self.nodes[0x200000]
        self.assertTrue(sw0['sw'])
        self.assertEqual(sw0['lid'], 2)
        self.assertEqual(sw0['ports'][1], (0x200001, 1))
        self.assertEqual(sw0['ports'][3], (0x100000, 1))
        host2 = self.nodes[0x100004]
        self.assertFalse(host2['sw'])
        self.assertEqual(host2['port_guids'], {1: 0x100005})
        self.assertEqual(host2['ports'][1], (0x200001, 3))

    def test_empty_tables(self):
        tables = check_mft.parse_mft(sample('twoswitch.ibroute_M_empty.txt'))
        self.assertEqual(tables, {0x200001: {}, 0x200000: {}})

    def test_entries_normal_and_brief(self):
        tables = check_mft.parse_mft(sample('twoswitch.ibroute_M_entries.txt'))
        self.assertEqual(tables[0x200001], {0xc000: {1, 3, 4}, 0xc001: {0, 2, 3}})
        self.assertEqual(tables[0x200000], {0xc000: {1, 3}, 0xc001: {1, 2}})

    def test_flood(self):
        tables = check_mft.parse_mft(sample('twoswitch.ibroute_M_entries.txt'))
        good = check_mft.check_group(self.nodes, tables, 0xc000, [0x100001, 0x100005, 0x100007])
        self.assertEqual(good, [])
        missing = check_mft.check_group(self.nodes, tables, 0xc000, [0x100001, 0x100003, 0x100005])
        self.assertTrue(any('non-member' in e for e in missing), missing)
        loop = check_mft.check_group(self.nodes, tables, 0xc001, [0x200001, 0x100005])
        self.assertTrue(loop and all('revisits switch' in e for e in loop), loop)
        self.assertEqual(sorted(check_mft.members_from_tables(self.nodes, tables, 0xc000)),
                         [0x100001, 0x100005, 0x100007])

    def test_captured_after_smd_programmed(self):
        text = sample('twoswitch.ibroute_M_smd.txt')
        sections = text.split('Multicast mlids')
        normal = check_mft.parse_mft('Multicast mlids' + sections[1])
        brief = check_mft.parse_mft('Multicast mlids' + sections[2])
        self.assertEqual(normal, brief)
        self.assertEqual(normal[0x200001], {0xc000: {1, 3, 4}, 0xc001: {2, 3, 4}})
        tables = check_mft.parse_mft(text)
        groups = check_mft.parse_groups(sample('twoswitch.groups.txt'))
        self.assertEqual(sorted(groups), [0xc000, 0xc001, 0xc002])
        for mlid, members in groups.items():
            self.assertEqual(check_mft.check_group(self.nodes, tables, mlid, members), [], hex(mlid))
        self.assertEqual(check_mft.link_load(self.nodes, tables), (1, 2, 2), 'one group per parallel cable')

    def test_link_load(self):
        tables = check_mft.parse_mft(sample('twoswitch.ibroute_M_entries.txt'))
        self.assertEqual(check_mft.link_load(self.nodes, tables), (2, 2, 2))


if __name__ == '__main__':
    unittest.main()
