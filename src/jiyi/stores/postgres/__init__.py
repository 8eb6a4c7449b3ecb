"""jiyi.stores.postgres"""
